// `npm run loadtest`: drives the real HTTP stack with a bounded, mixed load from several callers and
// checks that nothing was lost. See the usage below; the work is done by loadRun.ts.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../../infra/local/paths.ts';
import { type LocalService, startLocalService } from '../support/localService.ts';
import {
  type Caller,
  formatProgress,
  formatSummary,
  isClean,
  runLoad,
  verifyLists,
} from './loadRun.ts';

const usage = `usage: npm run loadtest -- [options]

Several callers send a mix of requests with a bounded number in flight: creates (fresh ids,
identical retries, conflicting duplicates), reads of their own plants and of others', lists,
updates with the current ETag and with a stale one, and deletes. Each answer is checked as it
comes (the right status and body for the plant's state). At the end each caller's plants are
listed through the API, page by page: every acknowledged create that was not deleted must be there
exactly once with its last acknowledged update, nothing deleted may come back, and no caller may
see another's plant. Prints progress (stderr) and a summary (stdout): requests/s, p50/p99 latency,
the count of each operation and status, and those counts. Exits 1 when any check fails.

By default it starts its own stack exactly as npm start does (DynamoDB Local and serverless-offline
on free ports, a temporary data folder) and stops it at the end.

Options:
  --requests N            how many requests in all (default 5000)
  --concurrency N         how many in flight at once (default 32)
  --callers N             how many callers, each with its own token (default 4)
  --ramp-up SECONDS       reach that many in flight over the first seconds, one more at a time
                          (default 8; 0: all at once). Every request counts: the ramp only keeps
                          serverless-offline from cold-starting 32 workers at once on one machine
  --url URL               test an already running npm start instead, e.g. http://127.0.0.1:3000
                          (its callers' tokens come from npm run token and the default data
                          folder, .local/data)
  --token TOKEN           with --url: a caller's token; give it once per caller, instead of
                          --callers (for a service whose tokens npm run token cannot make)
  --seed N                repeat the same choice of requests
  --help                  this text

Against a running npm start (in another terminal):
  npm run loadtest -- --url http://127.0.0.1:3000
`;

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
        callers: { type: 'string' },
        'ramp-up': { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string', multiple: true },
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
const callerCount = positive('callers', values.callers, 4);
if (!values.url && values.token) fail('--token goes with --url');
if (values.token && values.callers) fail('give --token once per caller, or --callers, not both');
// each run's callers are new, so that their lists hold this run's plants only
const runName = `load-${Date.now().toString(36)}`;
const callerName = (index: number) => `${runName}-${index + 1}`;

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

/** The subject a token names, for the summary. */
const subjectOf = (token: string, fallback: string) => {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
    return typeof payload.sub === 'string' ? payload.sub : fallback;
  } catch {
    return fallback;
  }
};

try {
  let baseUrl: string;
  let callers: Caller[];
  if (values.url) {
    baseUrl = values.url.replace(/\/+$/, '');
    callers =
      values.token?.map((token, i) => ({ name: subjectOf(token, `caller ${i + 1}`), token })) ??
      Array.from({ length: callerCount }, (_, i) => ({
        name: callerName(i),
        token: execFileSync(
          process.execPath,
          [join(repoRoot, 'infra', 'local', 'token.ts'), '--sub', callerName(i)],
          { cwd: repoRoot, encoding: 'utf8' },
        ).trim(),
      }));
  } else {
    say(
      'loadtest: starting the local stack as npm start does (DynamoDB Local, serverless-offline)...',
    );
    dataDir = mkdtempSync(join(tmpdir(), 'plant-store-loadtest-'));
    const started = await startLocalService(dataDir);
    service = started;
    baseUrl = started.baseUrl;
    callers = await Promise.all(
      Array.from({ length: callerCount }, async (_, i) => ({
        name: callerName(i),
        token: (await started.token('--sub', callerName(i))).trim(),
      })),
    );
    say(`loadtest: the stack is up at ${baseUrl}`);
  }

  const run = await runLoad({
    baseUrl,
    callers,
    requests,
    concurrency,
    rampUpMs: rampUpSeconds * 1000,
    ...(seed === undefined ? {} : { seed }),
    onProgress: (progress) => say(formatProgress(progress)),
  });
  say(`loadtest: listing each caller's plants...`);
  const verification = await verifyLists(run);
  const ok = isClean(verification);
  process.stdout.write(`${formatSummary({ run, verification, ok })}\n`);
  await cleanUp();
  process.exit(ok ? 0 : 1);
} catch (error) {
  process.stderr.write(`loadtest: ${error instanceof Error ? error.message : String(error)}\n`);
  await cleanUp();
  process.exit(1);
}
