// `npm run smoke` run as a user runs it (node infra/stage/smoke.ts, a child process) against a real
// `npm start`, which stands in for a deployed stage: with CORS_ALLOWED_ORIGINS set, as a stage with
// corsAllowedOrigins (without it serverless-offline allows every origin, unlike API Gateway). Its
// receivers are on this machine (npm start allows private addresses); --stage reads a stub of
// CloudFormation, at the SDK's HTTP boundary.
import { execFile, spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocally } from '../../infra/local/listen.ts';
import { repoRoot } from '../../infra/local/paths.ts';
import { startCloudFormationStub } from '../support/cloudFormationStub.ts';
import { type Receiver, startReceiver } from '../support/endpointReceiver.ts';
import { type LocalService, sendAs, startLocalService } from '../support/localService.ts';
import { startRecordingProxy } from '../support/recordingProxy.ts';

const ALLOWED_ORIGIN = 'https://app.example.test';
let service: LocalService;

beforeAll(async () => {
  service = await startLocalService(undefined, { CORS_ALLOWED_ORIGINS: ALLOWED_ORIGIN });
});
afterAll(() => service?.stop());

/** The environment of a user's shell without AWS settings or a token, plus `env`. */
const userEnv = (env: NodeJS.ProcessEnv) => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(AWS_|PLANT_STORE_TOKEN$)/.test(name)),
  ),
  ...env,
});

const smokeScript = join(repoRoot, 'infra', 'stage', 'smoke.ts');

/** `npm run smoke -- <args>`: its exit code and what it printed. */
const smoke = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [smokeScript, ...args], {
      cwd: repoRoot,
      env: userEnv(env),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
};

/** The first group of `pattern` in `text`, or a failure naming what is missing. */
const captured = (text: string, pattern: RegExp) => {
  const match = text.match(pattern)?.[1];
  if (match === undefined) throw new Error(`no ${pattern} in:\n${text}`);
  return match;
};

const PUBLIC_CHECKS = ['no token', 'unknown path', 'CORS preflight'];
const PLANT_CHECKS = ['create', 'read', 'list', 'list by tag', 'patch', 'delete', 'gone'];
const WEBHOOK_CHECKS = [
  'register endpoint',
  'ping',
  'create for the webhook',
  'webhook ping delivered',
  'webhook plant.added delivered',
];
const passedLine = (name: string) => new RegExp(`^✓ ${name}: `, 'm');

describe('npm run smoke, with a token', () => {
  it('passes every check of a plant’s life, one line each, and leaves no plant behind', async () => {
    const token = (await service.token('--sub', 'smoke-plants')).trim();
    const run = await smoke(['--url', service.baseUrl, '--allow-http'], {
      PLANT_STORE_TOKEN: token,
    });

    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^Smoke test of http:\S+: version and commit not known \(--url reads no stack; --stage does\)$/m,
    );
    for (const name of [...PUBLIC_CHECKS, ...PLANT_CHECKS]) {
      expect(run.stdout).toMatch(passedLine(name));
    }
    expect(run.stdout).toMatch(/^✓ no token: GET \/plants 401 .*WWW-Authenticate: Bearer/m);
    expect(run.stdout).toMatch(/^✓ unknown path: GET \/smoke-\w+ 404 /m);
    expect(run.stdout).toMatch(
      /^✓ CORS preflight: OPTIONS \/plants from https:\/\/smoke\.invalid \d+, no Access-Control-Allow-Origin/m,
    );
    expect(run.stdout).toMatch(/^– skipped webhook delivery: no --receiver/m);
    expect(run.stdout).toMatch(
      /^ {2}left behind: its 1 plant\.added sent to the stage's operator receiver, if it has one$/m,
    );
    expect(run.stdout).toMatch(/^10 passed, 0 failed, skipped: webhooks: all passed$/m);
    expect(run.stdout + run.stderr).not.toContain(token);

    const id = captured(run.stdout, /^✓ create: 200 plant (-?\d+) /m);
    expect((await sendAs(service.baseUrl, token, 'GET', `/plants/${id}`)).status).toBe(404);
    const list = await sendAs(service.baseUrl, token, 'GET', '/plants');
    expect(await list.json()).toEqual([]);
  });
});

describe('npm run smoke, without a token', () => {
  it('checks what anyone can see, and says what it skipped and why', async () => {
    const run = await smoke(['--url', service.baseUrl, '--origin', ALLOWED_ORIGIN, '--allow-http']);

    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^✓ no token: GET \/plants 401 "Authorization header is missing.*", WWW-Authenticate: Bearer realm="plants"$/m,
    );
    expect(run.stdout).toMatch(/^✓ unknown path: GET \/smoke-\w+ 404 "There is no \/smoke-/m);
    expect(run.stdout).toMatch(
      /^✓ CORS preflight: OPTIONS \/plants from https:\/\/app\.example\.test 204, allowed$/m,
    );
    expect(run.stdout).toMatch(
      /^– skipped plants and webhooks: no token; give --token <jwt> or set PLANT_STORE_TOKEN/m,
    );
    expect(run.stdout).toMatch(/^3 passed, 0 failed, skipped: plants, webhooks: all passed$/m);
    expect(run.stdout).not.toMatch(/^✓ create/m);
  });
});

describe('npm run smoke, with a receiver', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.stop());

  it('has the ping and the plant delivered to it, signed, and deletes its endpoint', async () => {
    const token = (await service.token('--sub', 'smoke-webhooks')).trim();
    // the endpoint's secret is answered only to the script: read it on the way
    const proxy = await startRecordingProxy(service.baseUrl);
    const run = await smoke(
      ['--url', proxy.url, '--receiver', receiver.url, '--wait', '30', '--allow-http'],
      {
        PLANT_STORE_TOKEN: token,
      },
    ).finally(() => proxy.stop());

    expect(run.code, run.stdout + run.stderr).toBe(0);
    for (const name of [...PUBLIC_CHECKS, ...PLANT_CHECKS, ...WEBHOOK_CHECKS, 'clean up']) {
      expect(run.stdout).toMatch(passedLine(name));
    }
    expect(run.stdout).toMatch(/^✓ webhook ping delivered: the receiver answered 200/m);
    expect(run.stdout).toMatch(/docs\/webhooks\.md, "Verifying a signature"/);
    expect(run.stdout).toMatch(
      /^ {2}left behind: its 2 plant\.added sent to the stage's operator receiver, if it has one; the attempts of ep_\S+, kept 14 days$/m,
    );
    expect(run.stdout).toMatch(/^16 passed, 0 failed: all passed$/m);

    const endpointId = captured(run.stdout, /^✓ register endpoint: 201 (ep_\S+) /m);
    const pingId = captured(run.stdout, /^✓ ping: 202 (msg_\S+)$/m);
    const plantId = Number(captured(run.stdout, /^✓ create for the webhook: 200 plant (-?\d+) /m));
    const registration = proxy.exchanges.find(
      ({ method, path, status }) => method === 'POST' && path === '/webhooks' && status === 201,
    );
    const { secret } = JSON.parse(registration?.body ?? '{}') as { secret: string };
    for (const kept of [secret, token, receiver.url]) {
      expect(run.stdout + run.stderr).not.toContain(kept);
    }
    const verified = receiver.received.map(({ body, headers }) =>
      new Webhook(secret).verify(body, {
        'webhook-id': String(headers['webhook-id']),
        'webhook-timestamp': String(headers['webhook-timestamp']),
        'webhook-signature': String(headers['webhook-signature']),
      }),
    );
    expect(receiver.received.find(({ webhookId }) => webhookId === pingId)?.event).toMatchObject({
      type: 'webhook.ping',
      data: { endpointId },
    });
    expect(verified).toContainEqual(
      expect.objectContaining({
        type: 'plant.added',
        data: expect.objectContaining({ id: plantId }),
      }),
    );

    expect((await sendAs(service.baseUrl, token, 'GET', `/webhooks/${endpointId}`)).status).toBe(
      404,
    );
    expect((await sendAs(service.baseUrl, token, 'GET', `/plants/${plantId}`)).status).toBe(404);
  });
});

describe('npm run smoke, when something is wrong', () => {
  let failing: Receiver;
  beforeAll(async () => {
    failing = await startReceiver();
    failing.answerWith(() => ({ status: 500 }));
  });
  afterAll(() => failing?.stop());

  it('exits non-zero naming the webhook checks when the receiver answers 500, and still cleans up', async () => {
    const token = (await service.token('--sub', 'smoke-failing')).trim();
    const run = await smoke(
      ['--url', service.baseUrl, '--receiver', failing.url, '--wait', '8', '--allow-http'],
      {
        PLANT_STORE_TOKEN: token,
      },
    );

    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(
      /^✗ webhook ping delivered: expected a 2xx answer from the receiver within 8 s, got 500 \(attempt 1\).*: see what the receiver answered/m,
    );
    expect(run.stdout).toMatch(/^✗ webhook plant\.added delivered: expected a 2xx answer/m);
    expect(run.stderr).toMatch(/… waiting for the ping msg_\S+: 500 \(attempt 1\)/);
    expect(run.stdout).toMatch(/^✓ clean up: deleted \/plants\/-?\d+, \/webhooks\/ep_\S+$/m);
    expect(run.stdout).toMatch(/^14 passed, 2 failed: FAILED: see the ✗ lines for what to do$/m);
    expect(failing.received.length).toBeGreaterThan(0);
    expect(run.stdout + run.stderr).not.toContain(failing.url);

    const endpoints = await sendAs(service.baseUrl, token, 'GET', '/webhooks');
    expect(await endpoints.json()).toEqual([]);
    const plants = await sendAs(service.baseUrl, token, 'GET', '/plants');
    expect(await plants.json()).toEqual([]);
  });

  it('stops at Ctrl-C and still deletes what it made', async () => {
    const token = (await service.token('--sub', 'smoke-interrupted')).trim();
    const child = spawn(
      process.execPath,
      [
        smokeScript,
        '--url',
        service.baseUrl,
        '--receiver',
        failing.url,
        '--wait',
        '60',
        '--allow-http',
      ],
      { cwd: repoRoot, env: userEnv({ PLANT_STORE_TOKEN: token }) },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    while (!stderr.includes('… waiting for the ping')) {
      if (child.exitCode !== null) throw new Error(`smoke ended before it waited:\n${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill('SIGINT');

    expect(await exited).toBe(1);
    expect(stderr).toMatch(/smoke: stopping; deleting what it made/);
    expect(stdout).toMatch(/^✓ clean up: deleted \/plants\/-?\d+, \/webhooks\/ep_\S+$/m);
    expect(stdout).toMatch(
      /^– skipped webhook ping delivered, webhook plant\.added delivered: stopped by Ctrl-C$/m,
    );
    expect(stdout).not.toMatch(/^✗/m);
    expect(stdout).toMatch(/: interrupted$/m);
    const endpoints = await sendAs(service.baseUrl, token, 'GET', '/webhooks');
    expect(await endpoints.json()).toEqual([]);
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
    expect(run.stdout).toMatch(
      /^✗ CORS preflight: expected Access-Control-Allow-Origin: https:\/\/elsewhere\.example, got none \(204\): the stage does not allow this origin: add it to the stage's corsAllowedOrigins/m,
    );
    expect(run.stdout).toMatch(/^2 passed, 1 failed, skipped: plants, webhooks: FAILED/m);
  });

  it('says when the caller has 10 endpoints already, and registers none', async () => {
    const token = (await service.token('--sub', 'smoke-full')).trim();
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
    expect(run.stdout).toMatch(
      /^✗ register endpoint: expected 201, got 409 .*: the test caller has 10 endpoints already, the most a caller may have: delete one/m,
    );
    expect(run.stdout).toMatch(
      /^– skipped ping, create for the webhook: they need register endpoint$/m,
    );
    expect(run.stdout).toMatch(
      /^– skipped webhook ping delivered, webhook plant\.added delivered: they need register endpoint$/m,
    );
    const endpoints = await sendAs(service.baseUrl, token, 'GET', '/webhooks');
    expect(await endpoints.json()).toHaveLength(10);
  });

  it('follows no Link to another origin, and prints no secret, token or receiver URL of a wrong answer', async () => {
    const token = (await service.token('--sub', 'smoke-leaks')).trim();
    // another origin, keeping what it is sent: the token must never reach it
    const elsewhere: IncomingHttpHeaders[] = [];
    const other = await listenLocally(
      createServer((request, response) => {
        elsewhere.push(request.headers);
        response.end('[]');
      }),
    );
    const otherOrigin = `http://127.0.0.1:${other.port}`;
    const proxy = await startRecordingProxy(service.baseUrl, ({ method, path, status, body }) => {
      if (method === 'GET' && path === '/plants?limit=100') {
        return { body: '[]', headers: { link: `<${otherOrigin}/plants?cursor=x>; rel="next"` } };
      }
      // the endpoint with its secret and URL, but no id
      if (method === 'POST' && path === '/webhooks' && status === 201) {
        const { id: _id, ...endpoint } = JSON.parse(body) as Record<string, unknown>;
        return { body: JSON.stringify(endpoint) };
      }
      return undefined;
    });
    const run = await smoke(['--url', proxy.url, '--receiver', failing.url, '--allow-http'], {
      PLANT_STORE_TOKEN: token,
    }).finally(() => Promise.all([proxy.stop(), other.stop()]));

    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `✗ list: expected a Link to the API's origin ${proxy.url}, got one to ${otherOrigin}, not followed: `,
    );
    expect(elsewhere).toEqual([]);
    expect(run.stdout).toMatch(
      /^✗ register endpoint: expected an endpoint with its secret, got 201 \{[\w, ]*\bsecret\b[\w, ]*\}$/m,
    );
    const registered = proxy.exchanges.find(
      ({ method, path }) => method === 'POST' && path === '/webhooks',
    );
    const { secret } = JSON.parse(registered?.body ?? '{}') as { secret?: string };
    expect(secret).toMatch(/^whsec_/);
    for (const kept of ['whsec_', token, failing.url]) {
      expect(run.stdout + run.stderr).not.toContain(kept);
    }
  });

  it('refuses a plain-http API or receiver without --allow-http, asking nothing of them', async () => {
    // a receiver of its own: the failing one still gets the earlier tests' retries
    const untouched = await startReceiver();
    for (const args of [
      ['--url', service.baseUrl],
      ['--url', service.baseUrl.replace('http:', 'https:'), '--receiver', untouched.url],
    ]) {
      const run = await smoke(args, { PLANT_STORE_TOKEN: 'not-sent' });

      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /^smoke: the API's and the receiver's URLs must be https: pass --allow-http for a local run\n$/,
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

  it('reads the URL from the stack plant-store-<stage>, in --region', async () => {
    const run = await smoke(
      ['--stage', 'smoke', '--region', 'eu-west-3', '--allow-http'],
      aws(credentials),
    );

    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^Smoke test of ${service.baseUrl} \\(stack plant-store-smoke, eu-west-3\\): version 1\\.2\\.3, commit c0ffee$`,
        'm',
      ),
    );
    expect(run.stdout).toMatch(/^3 passed, 0 failed/m);
    const request = cloudFormation.requests.at(-1);
    expect(request?.form.get('Action')).toBe('DescribeStacks');
    expect(request?.form.get('StackName')).toBe('plant-store-smoke');
    expect(request?.authorization).toMatch(/\/eu-west-3\/cloudformation\//);
  });

  it('says when its stack records no version, and takes its plain-http URL only with --allow-http', async () => {
    const run = await smoke(['--stage', 'old', '--allow-http'], aws(credentials));

    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^Smoke test of http:\S+ \(stack plant-store-old, us-east-1\): no version recorded: deployed by 1\.0\.0 or earlier \(docs\/upgrading\.md\)$/m,
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
