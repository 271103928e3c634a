// `npm run smoke`: the e2e HTTP suite (test/support/target.ts) run by vitest against a deployed
// stage, as the usage below says; it prints no token, secret or receiver URL, and deletes on Ctrl-C
// what the tests made.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { repoRoot } from '../../infra/local/paths.ts';
import { stackName, stageRegion } from '../../infra/stage/stageData.ts';
import { stackOutputs } from '../support/stackOutputs.ts';

/** The suite: every route, each file's tests tagged `local` left out against a stage. */
const SUITE = ['test/e2e/plantRoutes.test.ts', 'test/e2e/endpoints.test.ts'];

const usage = `usage: npm run smoke -- (--stage <stage> [--region <region>] | --url <url>) [--token <jwt>]
                      [--receiver <https url>] [--origin <origin>] [--wait <seconds>] [--allow-http]

Runs the e2e HTTP tests (${SUITE.join(', ')}) against a deployed stage as its
one test caller, one line per check; exits 0 only when every check passed. Tests tagged local (two
callers, the local key or receiver, load, faults) never run against a stage.

Without a token: a call without one answers 401 with the Error body, an unknown path 404 and
another method 405, and a CORS preflight as the stage's corsAllowedOrigins say. With a token, also:
a plant of its own created, read, listed (and by its tag), replaced and patched with If-Match,
deleted and gone; an endpoint registered, listed, read, replaced, its secret rotated, deleted. With
--receiver too: an endpoint registered to it, pinged, a plant added, each answered 2xx by the
receiver within --wait, and the ping resent. What a test made is deleted at its end, even when it
failed or on Ctrl-C.

  --stage <stage>     the stage: its URL, version and commit are the outputs HttpApiUrl, Version
                      and Commit of the stack plant-store-<stage>, read with your AWS credentials
  --region <region>   the stage's region (default: AWS_REGION, else us-east-1)
  --url <url>         the API's URL instead (npx sls info --stage <stage> shows it): no AWS call
  --token <jwt>       a test caller's token (default: PLANT_STORE_TOKEN), with the stage's read and
                      write scopes when it sets them
  --receiver <url>    a public https receiver of yours that answers 2xx (a stage refuses private
                      addresses)
  --origin <origin>   an origin of the stage's corsAllowedOrigins: its preflight must be allowed;
                      without it, an origin no stage lists (https://smoke.invalid) must not be
  --wait <seconds>    how long the receiver's answers may take (default 60)
  --allow-http        let the API's URL and the receiver be plain http: for a local run (npm start)`;

const fail = (message: string, code = 2): never => {
  process.stderr.write(`smoke: ${message}\n`);
  return process.exit(code);
};

const options = (() => {
  try {
    const { values } = parseArgs({
      options: {
        stage: { type: 'string' },
        region: { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        receiver: { type: 'string' },
        origin: { type: 'string' },
        wait: { type: 'string', default: '60' },
        'allow-http': { type: 'boolean', default: false },
        help: { type: 'boolean' },
      },
    });
    if (values.help) {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    }
    if (!values.stage && !values.url) throw new Error('give --stage <stage> or --url <url>');
    if (!/^\d+$/.test(values.wait) || Number(values.wait) < 1) {
      throw new Error(`--wait must be a whole number of seconds, at least 1, got "${values.wait}"`);
    }
    for (const flag of ['url', 'receiver', 'origin'] as const) {
      const value = values[flag];
      if (value !== undefined && !/^https?:$/.test(URL.parse(value)?.protocol ?? '')) {
        throw new Error(`--${flag} must be an http(s) URL`);
      }
    }
    return values;
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${usage}`);
  }
})();

const region = stageRegion(options.region);
const { url, version, commit } = options.url
  ? { url: options.url, version: undefined, commit: undefined }
  : await stackOutputs(options.stage ?? '', region).catch((e) => fail(e.message, 1));
const baseUrl = url.replace(/\/+$/, '');
const { receiver, origin } = options;
const token = options.token ?? process.env.PLANT_STORE_TOKEN;
// the token goes to the API and an endpoint's secret comes back: https only, but for npm start
if (!options['allow-http'] && [url, receiver].some((u) => /^http:/i.test(u ?? ''))) {
  fail("the API's and the receiver's URLs must be https: pass --allow-http for a local run");
}

const where = options.url
  ? `${baseUrl}: version and commit not known (--url reads no stack; --stage does)`
  : `${baseUrl} (stack ${stackName(options.stage ?? '')}, ${region}): ${version ? `version ${version}, commit ${commit}` : 'no version recorded: deployed by 1.0.0 or earlier (docs/upgrading.md)'}`;
process.stdout.write(`Smoke test of ${where}\n`);
if (!token) {
  process.stdout.write(
    '– only the checks needing no token: give --token <jwt> or set PLANT_STORE_TOKEN (a test caller’s token from the stage’s identity provider, with its read and write scopes when it sets them)\n',
  );
} else if (!receiver) {
  process.stdout.write(
    '– no webhook delivery checks: no --receiver <https url> (a public https receiver of yours that answers 2xx)\n',
  );
}

// test/support/target.ts writes here each plant and endpoint made, for the clean-up after Ctrl-C
const ledgerDir = mkdtempSync(join(tmpdir(), 'plant-store-smoke-'));
const ledger = join(ledgerDir, 'made');
const filter = ['!local', token ? '' : 'public', receiver ? '' : '!receiver'].filter(Boolean);
const vitest = spawn(
  process.execPath,
  [
    join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--project=e2e',
    '--reporter=verbose',
    `--tags-filter=${filter.join(' && ')}`,
    ...SUITE,
  ],
  {
    cwd: repoRoot,
    // its own process group: Ctrl-C reaches this script alone, which stops it and cleans up
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PLANT_STORE_URL: baseUrl,
      PLANT_STORE_TOKEN: token ?? '',
      PLANT_STORE_RECEIVER: receiver ?? '',
      PLANT_STORE_ORIGIN: origin ?? '',
      PLANT_STORE_WAIT: options.wait,
      PLANT_STORE_LEDGER: ledger,
      ...(process.stdout.isTTY ? {} : { NO_COLOR: '1' }),
    },
  },
);
// a failing assertion may show an answer's body: never its secrets
const kept = [token, receiver].filter((value): value is string => Boolean(value));
const redacted = (text: string) =>
  kept
    .reduce((all, value) => all.replaceAll(value, '<redacted>'), text)
    .replace(/whsec_[\w+/=]+/g, 'whsec_<redacted>');
// line by line: a secret split across two chunks of the pipe is still one line
for (const [from, to] of [
  [vitest.stdout, process.stdout],
  [vitest.stderr, process.stderr],
] as const) {
  createInterface({ input: from }).on('line', (line) => to.write(`${redacted(line)}\n`));
}
const exited = new Promise<number | null>((done) => vitest.once('close', done));

let interrupted = false;
const stop = (signal: NodeJS.Signals) => {
  interrupted = true;
  process.stderr.write('smoke: stopping; deleting what it made (Ctrl-C again to leave it)\n');
  process.once(signal, () => process.exit(130));
  // its own group: never ours, even when it did not start
  if (vitest.pid) process.kill(-vitest.pid, 'SIGTERM');
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
const code = await exited;

/** Deletes what the tests made and did not delete (404: gone already); says how, if it cannot. */
const left = [...new Set(readFileSync(ledger, { flag: 'a+', encoding: 'utf8' }).split('\n'))];
const problems: string[] = [];
const deleted: string[] = [];
for (const path of left.filter(Boolean)) {
  const answer = await fetch(`${baseUrl}${path}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(15_000),
  }).catch((error: Error) => ({ status: error.message }));
  if (answer.status === 204) deleted.push(path);
  else if (answer.status !== 404) problems.push(`${path}: ${answer.status}`);
}
rmSync(ledgerDir, { recursive: true, force: true });
if (deleted.length > 0) process.stdout.write(`✓ clean up: deleted ${deleted.join(', ')}\n`);
if (problems.length > 0) {
  process.stdout.write(
    `✗ clean up: expected 204, got ${problems.join('; ')}: delete it yourself (curl -X DELETE ${baseUrl}<path> -H "Authorization: Bearer $TOKEN")\n`,
  );
}
/** What to do about a check that got one of these statuses where it expected another. */
const HINTS: Record<number, string> = {
  401: "the token was refused: get a fresh one from the stage's identity provider for a test caller (docs/authentication.md)",
  403: 'the token lacks the stage\'s read or write scope: get one with both (docs/authentication.md, "Scopes")',
  429: "throttled (API Gateway's limit, or the endpoint's pings in a minute): wait a minute and run again",
  500: "the service failed: see the function's log for this request (docs/operations.md)",
  503: 'the service or its store was unavailable: run again in a few seconds; if it persists, see docs/operations.md',
};
const passed = code === 0 && !interrupted && problems.length === 0;
if (!passed && !interrupted) {
  const hints = Object.entries(HINTS).map(([status, hint]) => `  got ${status}: ${hint}`);
  process.stdout.write(
    `What to do about a check that got an unexpected status:\n${hints.join('\n')}\n`,
  );
}
process.stdout.write(`${interrupted ? 'interrupted' : passed ? 'all passed' : 'FAILED'}\n`);
process.exit(passed ? 0 : 1);
