// `npm run smoke` (test/smoke/smoke.ts, a child process) run as a user runs it against a real
// `npm start`, which stands in for a deployed stage: with CORS_ALLOWED_ORIGINS set, as a stage with
// corsAllowedOrigins. Its receivers are on this machine (npm start allows private addresses);
// --stage reads a stub of CloudFormation, at the SDK's HTTP boundary.
import { execFile, spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocally } from '../../infra/local/freePort.ts';
import { repoRoot } from '../../infra/local/paths.ts';
import { startCloudFormationStub } from '../support/cloudFormationStub.ts';
import { type Receiver, startReceiver } from '../support/endpointReceiver.ts';
import { type LocalService, sendAs, startLocalService } from '../support/localService.ts';
import { startRecordingProxy } from '../support/recordingProxy.ts';

const ALLOWED_ORIGIN = 'https://app.example.test';
let service: LocalService;
let failing: Receiver;

beforeAll(async () => {
  service = await startLocalService(undefined, { CORS_ALLOWED_ORIGINS: ALLOWED_ORIGIN });
  failing = await startReceiver();
  failing.answerWith(() => ({ status: 500 }));
});
afterAll(() => Promise.all([service?.stop(), failing?.stop()]));

/** The environment of a user's shell without AWS settings, a token or this vitest's, plus `env`. */
const userEnv = (env: NodeJS.ProcessEnv) => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(AWS_|PLANT_STORE_|VITEST|TINYPOOL|NODE_ENV$)/.test(name),
    ),
  ),
  ...env,
});

const smokeScript = join(repoRoot, 'test', 'smoke', 'smoke.ts');

/** `npm run smoke -- <args>`: its exit code and what it printed. */
const smoke = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [smokeScript, ...args], {
      cwd: repoRoot,
      env: userEnv(env),
    });
    return { code: 0, stdout, stderr, all: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr, all: stdout + stderr };
  }
};

/** A check's line, passed or failed, in vitest's verbose report. */
const line = (mark: '✓' | '×', name: string) => new RegExp(`^ ${mark} .* > ${name}`, 'm');
const LIFECYCLE = 'creates, reads, updates with If-Match, lists and deletes a plant';
const DELIVERY = 'delivers a ping and a plant added to a receiver';
const tokenOf = async (caller: string) => (await service.token('--sub', caller)).trim();
const leftOf = async (token: string) => ({
  plants: await (await sendAs(service.baseUrl, token, 'GET', '/plants')).json(),
  endpoints: await (await sendAs(service.baseUrl, token, 'GET', '/webhooks')).json(),
});

describe('npm run smoke', () => {
  it('runs the e2e tests a stage may take, one line each, leaving nothing behind', async () => {
    const token = await tokenOf('smoke-plants');
    const run = await smoke(['--url', service.baseUrl, '--allow-http'], {
      PLANT_STORE_TOKEN: token,
    });

    expect(run.code, run.all).toBe(0);
    expect(run.stdout).toMatch(
      /^Smoke test of http:\S+: version and commit not known \(--url reads no stack; --stage does\)$/m,
    );
    expect(run.stdout).toMatch(/^– no webhook delivery checks: no --receiver/m);
    for (const name of [LIFECYCLE, 'patches a plant', 'registers, lists, reads, replaces']) {
      expect(run.stdout).toMatch(line('✓', name));
    }
    // tagged local: another caller, the local gateway; needing a receiver
    expect(run.stdout).not.toMatch(line('✓', "keeps each caller's plants private"));
    expect(run.stdout).not.toMatch(line('✓', 'answers 415'));
    expect(run.stdout).not.toMatch(line('✓', DELIVERY));
    expect(run.stdout).toMatch(/^all passed$/m);
    expect(run.all).not.toContain(token);
    expect(await leftOf(token)).toEqual({ plants: [], endpoints: [] });
  });

  it('checks only what anyone can see without a token', async () => {
    const run = await smoke(['--url', service.baseUrl, '--origin', ALLOWED_ORIGIN, '--allow-http']);

    expect(run.code, run.all).toBe(0);
    expect(run.stdout).toMatch(/^– only the checks needing no token: give --token <jwt>/m);
    for (const name of ['answers a call without a token 401', 'answers a CORS preflight']) {
      expect(run.stdout).toMatch(line('✓', name));
    }
    expect(run.stdout).not.toMatch(line('✓', LIFECYCLE));
  });

  it('has the ping and a plant delivered to a receiver, signed, printing no secret, token or receiver URL', async () => {
    const token = await tokenOf('smoke-webhooks');
    const receiver = await startReceiver();
    const run = await smoke(
      ['--url', service.baseUrl, '--receiver', receiver.url, '--wait', '30', '--allow-http'],
      { PLANT_STORE_TOKEN: token },
    ).finally(() => receiver.stop());

    expect(run.code, run.all).toBe(0);
    expect(run.stdout).toMatch(line('✓', DELIVERY));
    // signed: the signatures themselves are checked by test/e2e/endpointDeliveries.test.ts
    expect(receiver.received.map(({ event, signatures }) => [event.type, signatures[0]])).toEqual(
      expect.arrayContaining([
        ['webhook.ping', expect.stringMatching(/^v1,/)],
        ['plant.added', expect.stringMatching(/^v1,/)],
      ]),
    );
    for (const kept of [token, receiver.url]) expect(run.all).not.toContain(kept);
    expect(run.all).not.toMatch(/whsec_(?!<redacted>)/);
    expect(await leftOf(token)).toEqual({ plants: [], endpoints: [] });
  });
});

describe('npm run smoke, when something is wrong', () => {
  it('exits non-zero naming the delivery check when the receiver answers 500, and still cleans up', async () => {
    const token = await tokenOf('smoke-failing');
    const run = await smoke(
      ['--url', service.baseUrl, '--receiver', failing.url, '--wait', '8', '--allow-http'],
      { PLANT_STORE_TOKEN: token },
    );

    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(line('×', DELIVERY));
    expect(run.all).toMatch(/a 2xx answer from the receiver to each within 8 s: see what/);
    expect(run.stdout).toMatch(/^ {2}got 401: the token was refused: get a fresh one/m);
    expect(run.stdout).toMatch(/^FAILED$/m);
    expect(failing.received.length).toBeGreaterThan(0);
    expect(run.all).not.toContain(failing.url);
    expect(await leftOf(token)).toEqual({ plants: [], endpoints: [] });
  });

  it('stops at Ctrl-C and still deletes what it made', async () => {
    const token = await tokenOf('smoke-interrupted');
    const slow = await startReceiver();
    slow.answerWith(() => ({ status: 500 }));
    const args = ['--url', service.baseUrl, '--receiver', slow.url, '--wait', '60'];
    const child = spawn(process.execPath, [smokeScript, ...args, '--allow-http'], {
      cwd: repoRoot,
      env: userEnv({ PLANT_STORE_TOKEN: token }),
    });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => {
        output += chunk;
      });
    }
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    // the delivery check is waiting: its endpoint and plant are made
    while (slow.received.length === 0) {
      if (child.exitCode !== null) throw new Error(`smoke ended before it waited:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill('SIGINT');

    expect(await exited).toBe(1);
    expect(output).toMatch(/smoke: stopping; deleting what it made/);
    // an endpoint id is base64url: it may hold - (and begin with it)
    expect(output).toMatch(/^✓ clean up: deleted .*\/webhooks\/ep_[\w-]{22}(,|$)/m);
    expect(output).toMatch(/^interrupted$/m);
    await slow.stop();
    expect(await leftOf(token)).toEqual({ plants: [], endpoints: [] });
  });

  it('fails the CORS check for an origin the stage does not allow', async () => {
    const run = await smoke([
      '--url',
      service.baseUrl,
      '--origin',
      'https://elsewhere.example',
      '--allow-http',
    ]);

    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(line('×', 'answers a CORS preflight'));
    expect(run.all).toMatch(/the stage does not allow this origin: add it to the stage's corsAll/);
  });

  it('says when the caller has 10 endpoints already', async () => {
    const token = await tokenOf('smoke-full');
    for (let i = 0; i < 10; i++) {
      const answer = await sendAs(service.baseUrl, token, 'POST', '/webhooks', {
        url: `http://127.0.0.1:9/hooks/${i}`,
      });
      expect(answer.status).toBe(201);
    }
    const run = await smoke(['--url', service.baseUrl, '--receiver', failing.url, '--allow-http'], {
      PLANT_STORE_TOKEN: token,
    });

    expect(run.code).toBe(1);
    expect(run.all).toMatch(/the test caller has 10 endpoints already, the most a caller may have/);
    expect((await leftOf(token)).endpoints).toHaveLength(10);
  });

  it('follows no Link to another origin, and prints no secret of a wrong answer', async () => {
    const token = await tokenOf('smoke-leaks');
    // another origin, keeping what it is sent: the token must never reach it
    const elsewhere: IncomingHttpHeaders[] = [];
    const other = await listenLocally(
      createServer((request, response) => {
        elsewhere.push(request.headers);
        response.end('[]');
      }),
    );
    const otherOrigin = `http://127.0.0.1:${other.port}`;
    const proxy = await startRecordingProxy(service.baseUrl, ({ method, path, status }) => {
      if (method === 'GET' && path === '/plants?limit=100') {
        return { body: '[]', headers: { link: `<${otherOrigin}/plants?cursor=x>; rel="next"` } };
      }
      // the endpoint with its secret and URL, but a wrong status: a failure shows the answer
      if (method === 'POST' && path === '/webhooks' && status === 201) return { status: 200 };
      return undefined;
    });
    const run = await smoke(['--url', proxy.url, '--receiver', failing.url, '--allow-http'], {
      PLANT_STORE_TOKEN: token,
    }).finally(() => Promise.all([proxy.stop(), other.stop()]));

    expect(run.code).toBe(1);
    expect(run.all).toContain(`a Link to the API's origin ${proxy.url}, not ${otherOrigin}`);
    expect(elsewhere).toEqual([]);
    const secrets = proxy.exchanges.flatMap(({ method, path, body }) =>
      method === 'POST' && path === '/webhooks' ? [JSON.parse(body).secret as string] : [],
    );
    expect(secrets[0]).toMatch(/^whsec_/);
    for (const kept of [...secrets, token, failing.url]) expect(run.all).not.toContain(kept);
  });

  it('refuses a plain-http API or receiver without --allow-http, asking nothing of them', async () => {
    const untouched = await startReceiver();
    for (const args of [
      ['--url', service.baseUrl],
      ['--url', service.baseUrl.replace('http:', 'https:'), '--receiver', untouched.url],
    ]) {
      const run = await smoke(args, { PLANT_STORE_TOKEN: 'not-sent' });

      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        "smoke: the API's and the receiver's URLs must be https: pass --allow-http for a local run\n",
      );
      expect(run.stdout).toBe('');
    }
    expect(untouched.received).toHaveLength(0);
    await untouched.stop();
  });
});

describe('npm run smoke --stage', () => {
  let cloudFormation: Awaited<ReturnType<typeof startCloudFormationStub>>;
  beforeAll(async () => {
    cloudFormation = await startCloudFormationStub({
      'plant-store-smoke': { HttpApiUrl: service.baseUrl, Version: '1.2.3', Commit: 'c0ffee' },
      'plant-store-old': { HttpApiUrl: service.baseUrl },
    });
  });
  afterAll(() => cloudFormation?.stop());

  /** No AWS settings but the endpoint of CloudFormation: nothing leaves this machine. */
  const aws = (env: NodeJS.ProcessEnv = {}) => ({
    AWS_ENDPOINT_URL_CLOUDFORMATION: cloudFormation.url,
    AWS_CONFIG_FILE: join(repoRoot, 'no-such-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(repoRoot, 'no-such-aws-credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    ...env,
  });
  const credentials = { AWS_ACCESS_KEY_ID: 'AKIDSMOKETEST', AWS_SECRET_ACCESS_KEY: 'smoke' };

  it('reads the URL from the stack plant-store-<stage>, in --region, and names its version', async () => {
    const run = await smoke(
      ['--stage', 'smoke', '--region', 'eu-west-3', '--origin', ALLOWED_ORIGIN, '--allow-http'],
      aws(credentials),
    );

    expect(run.code, run.all).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe(
      `Smoke test of ${service.baseUrl} (stack plant-store-smoke, eu-west-3): version 1.2.3, commit c0ffee`,
    );
    const request = cloudFormation.requests.at(-1);
    expect(request?.form.get('Action')).toBe('DescribeStacks');
    expect(request?.form.get('StackName')).toBe('plant-store-smoke');
    expect(request?.authorization).toMatch(/\/eu-west-3\/cloudformation\//);
  });

  it('says when its stack records no version, and takes its plain-http URL only with --allow-http', async () => {
    const run = await smoke(['--stage', 'old', '--allow-http'], aws(credentials));

    expect(run.code, run.all).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(
      /^Smoke test of http:\S+ \(stack plant-store-old, us-east-1\): no version recorded: deployed by 1\.0\.0 or earlier \(docs\/upgrading\.md\)$/,
    );
    const plain = await smoke(['--stage', 'old'], aws(credentials));
    expect(plain.code).toBe(2);
    expect(plain.stderr).toBe(
      "smoke: the API's and the receiver's URLs must be https: pass --allow-http for a local run\n",
    );
  });

  it('says a stack that does not exist does not exist, and what to do', async () => {
    const run = await smoke(['--stage', 'x'], aws({ ...credentials, AWS_REGION: 'eu-west-1' }));

    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'smoke: the stack plant-store-x does not exist in eu-west-1: deploy the stage (npx sls deploy --stage x), or if it is in another region, give --region or export AWS_REGION=<its region>\n',
    );
    expect(run.stdout).toBe('');
  });

  it('says there are no AWS credentials, and what to do, asking AWS nothing', async () => {
    const before = cloudFormation.requests.length;
    const run = await smoke(['--stage', 'x'], aws());

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^smoke: no AWS credentials to read the stack plant-store-x with \(.*\): configure them \(aws configure, AWS_PROFILE, or aws sso login\), or give the API's URL with --url \(npx sls info --stage x shows it\)\n$/,
    );
    expect(cloudFormation.requests).toHaveLength(before);
  });

  it('says how to call it when neither --stage nor --url is given', async () => {
    const run = await smoke([]);

    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^smoke: give --stage <stage> or --url <url>\n\nusage: npm run smoke/,
    );
  });
});
