// `npm run loadtest`: drives the real HTTP stack with a bounded load and checks that nothing was
// lost. See the usage below; the work is done by loadRun.ts.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type LocalService, startLocalService } from '../../infra/local/localService.ts';
import {
  formatProgress,
  formatSummary,
  isClean,
  LOCAL_TABLE,
  runLoad,
  verifyTable,
} from './loadRun.ts';

const usage = `usage: npm run loadtest -- [options]

Sends POST /plants requests (fresh ids, 10% identical retries, 10% conflicting duplicates) with a
bounded number in flight, prints progress (stderr) and a summary (stdout): requests/s, p50/p99
latency, the count of each status. Then it reads the table back and checks that every plant
answered 200 is stored exactly as sent, that no conflicting duplicate overwrote anything, and that
nothing answered 5xx. Exits 1 when any check fails.

By default it starts its own stack exactly as npm start does (DynamoDB Local and serverless-offline
on free ports, a temporary data folder) and stops it at the end.

Options:
  --requests N            how many requests in all (default 5000)
  --concurrency N         how many in flight at once (default 32)
  --ramp-up SECONDS       reach that many in flight over the first seconds, one more at a time
                          (default 8; 0: all at once). Every request counts: the ramp only keeps
                          serverless-offline from cold-starting 32 workers at once on one machine
  --url URL               test an already running npm start instead, e.g. http://127.0.0.1:3000
  --dynamodb-endpoint URL its DynamoDB Local, e.g. http://127.0.0.1:8000 (needed with --url)
  --token TOKEN           a bearer token it accepts (default: one from npm run token, which signs
                          with the key of the default data folder, .local/data)
  --table NAME            the table to read back (default ${LOCAL_TABLE})
  --seed N                repeat the same choice of requests
  --help                  this text

Against a running npm start (in another terminal):
  npm run loadtest -- --url http://127.0.0.1:3000 --dynamodb-endpoint http://127.0.0.1:8000 \\
    --token "$(npm run --silent token)"
`;

const repoRoot = resolve(import.meta.dirname, '..', '..');

const fail = (message: string): never => {
  process.stderr.write(`loadtest: ${message} (npm run loadtest -- --help for the options)\n`);
  process.exit(2);
};

const positive = (name: string, value: string | undefined, fallback: number) => {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) fail(`--${name} must be a positive integer`);
  return number;
};

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        requests: { type: 'string' },
        concurrency: { type: 'string' },
        'ramp-up': { type: 'string' },
        url: { type: 'string' },
        'dynamodb-endpoint': { type: 'string' },
        token: { type: 'string' },
        table: { type: 'string' },
        seed: { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    return fail((error as Error).message);
  }
})();

if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}

const requests = positive('requests', values.requests, 5000);
const concurrency = positive('concurrency', values.concurrency, 32);
const seed = values.seed === undefined ? undefined : positive('seed', values.seed, 1);
const rampUpSeconds = Number(values['ramp-up'] ?? 8);
if (!Number.isFinite(rampUpSeconds) || rampUpSeconds < 0) {
  fail('--ramp-up must be a number of seconds, 0 or more');
}
if (values.url && !values['dynamodb-endpoint']) {
  fail('--url needs --dynamodb-endpoint too: the table is read back from it');
}
if (!values.url && (values['dynamodb-endpoint'] || values.token || values.table)) {
  fail('--dynamodb-endpoint, --token and --table go with --url');
}

const say = (line: string) => process.stderr.write(`${line}\n`);

let service: LocalService | undefined;
let dataDir: string | undefined;
const cleanUp = async () => {
  await service?.stop();
  service = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

try {
  let target: { baseUrl: string; token: string; dynamodbEndpoint: string; table: string };
  if (values.url) {
    const token =
      values.token ??
      execFileSync(process.execPath, [join(repoRoot, 'infra', 'local', 'token.ts')], {
        cwd: repoRoot,
        encoding: 'utf8',
      });
    target = {
      baseUrl: values.url.replace(/\/+$/, ''),
      token: token.trim(),
      dynamodbEndpoint: values['dynamodb-endpoint'] ?? '',
      table: values.table ?? LOCAL_TABLE,
    };
  } else {
    say(
      'loadtest: starting the local stack as npm start does (DynamoDB Local, serverless-offline)...',
    );
    dataDir = mkdtempSync(join(tmpdir(), 'plant-store-loadtest-'));
    service = await startLocalService(dataDir);
    target = {
      baseUrl: service.baseUrl,
      token: (await service.token()).trim(),
      dynamodbEndpoint: service.dynamodbEndpoint,
      table: LOCAL_TABLE,
    };
    say(`loadtest: the stack is up at ${service.baseUrl}`);
  }

  const run = await runLoad({
    ...target,
    requests,
    concurrency,
    rampUpMs: rampUpSeconds * 1000,
    ...(seed === undefined ? {} : { seed }),
    onProgress: (progress) => say(formatProgress(progress)),
  });
  say(`loadtest: reading ${target.table} back...`);
  const verification = await verifyTable(run, target);
  const ok = isClean(verification);
  process.stdout.write(`${formatSummary({ run, verification, ok })}\n`);
  await cleanUp();
  process.exit(ok ? 0 : 1);
} catch (error) {
  process.stderr.write(`loadtest: ${error instanceof Error ? error.message : String(error)}\n`);
  await cleanUp();
  process.exit(1);
}
