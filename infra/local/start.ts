// `npm start`: the whole service on this machine, nothing in the cloud. DynamoDB Local keeps its
// data in .local/data (git-ignored), a local key pair signs tokens (`npm run token`), and
// serverless-offline serves the bundled functions behind a front server that also serves the API
// reference at /docs (infra/local/frontServer.ts), which opens PORT only once the functions can
// answer. Ctrl-C stops everything this started.
//
// Settings (environment): PORT (3000), LAMBDA_PORT (PORT+2, serverless-offline's invoke port),
// DYNAMODB_PORT (8000), PLANTS_LOCAL_DATA (.local/data). With AUTH_JWKS_URL set (and AUTH_ISSUER,
// AUTH_AUDIENCE), tokens are verified against that identity provider instead of the local key;
// AUTH_READ_SCOPE, AUTH_WRITE_SCOPE and AUTH_JWKS_COOLDOWN_SECONDS pass through to the functions.
// Each new plant is POSTed as the "plant added" webhook to WEBHOOK_URL (with WEBHOOK_SECRET), or
// without it to a local receiver that verifies and prints each delivery (infra/local/webhooks.ts).
// The terminal shows one line per request and per webhook attempt (infra/local/terminal.ts);
// `npm start -- --json` shows the functions' JSON log lines as deployed instead.
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { referencePage } from '../docs/reference.ts';
import { localDynamoClient } from './dynamoClient.ts';
import { startDynamoDbLocal } from './dynamodbLocal.ts';
import { freePort, untilListening } from './freePort.ts';
import { startFrontServer } from './frontServer.ts';
import {
  DEFAULT_TOKEN,
  ensureLocalKeys,
  LOCAL_AUDIENCE,
  LOCAL_ISSUER,
  mintLocalToken,
} from './keys.ts';
import { localDataDir, repoRoot, runningEnvPath } from './paths.ts';
import { ensureTable, tableStreamArn } from './tables.ts';
import { terminalLine } from './terminal.ts';
import { type LocalWebhooks, startLocalWebhooks } from './webhooks.ts';

// named as serverless.yml names every stage's tables
const PLANTS_TABLE = 'plant-store-local-plants';
const WEBHOOKS_TABLE = 'plant-store-local-webhooks';

const say = (line: string) => process.stdout.write(`${line}\n`);
const fail = (message: string): never => {
  process.stderr.write(`npm start: ${message}\n`);
  process.exit(1);
};

const portSetting = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1 || value > 65535)
    fail(`${name} must be a port number, got "${process.env[name]}"`);
  return value;
};

const assertPortFree = (port: number, setting: string) =>
  new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () =>
      reject(
        new Error(
          `port ${port} is already in use (is another npm start running?): stop what uses it, or set ${setting} to a free port`,
        ),
      ),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });

const httpPort = portSetting('PORT', 3000);
const dynamoPort = portSetting('DYNAMODB_PORT', 8000);
// serverless-offline also opens a Lambda-invoke port; keep it next to the HTTP port
const lambdaPort = portSetting('LAMBDA_PORT', httpPort + 2);
const dataDir = localDataDir();

/** Whose tokens the local run accepts: the local key's (npm run token), or a given provider's. */
const authSettings = async () => {
  const { AUTH_JWKS_URL, AUTH_ISSUER, AUTH_AUDIENCE } = process.env;
  if (AUTH_JWKS_URL) {
    if (!AUTH_ISSUER || !AUTH_AUDIENCE)
      fail(
        'AUTH_JWKS_URL needs AUTH_ISSUER and AUTH_AUDIENCE too: set all three, or none for the local key',
      );
    return {
      env: { AUTH_JWKS_URL, AUTH_ISSUER, AUTH_AUDIENCE, AUTH_JWKS_FILE: '' },
      description: `issued by ${AUTH_ISSUER} for ${AUTH_AUDIENCE}, keys from ${AUTH_JWKS_URL}`,
      token: '<a token from your identity provider>',
    };
  }
  const keys = await ensureLocalKeys(dataDir);
  return {
    env: {
      AUTH_ISSUER: LOCAL_ISSUER,
      AUTH_AUDIENCE: LOCAL_AUDIENCE,
      AUTH_JWKS_FILE: keys.jwksPath,
      AUTH_JWKS_URL: '',
    },
    description: 'from the local key: npm run token',
    token: '$(npm run --silent token)',
    /** The token the reference page offers, as `npm run token` would print it. */
    pageToken: () => mintLocalToken(keys.privateJwk, DEFAULT_TOKEN),
  };
};

const children: ChildProcess[] = [];
let webhooks: LocalWebhooks | undefined;
let front: { close: () => Promise<void> } | undefined;
let stopping = false;
/** Whether this run published its functions' environment (runningEnvPath). */
let published = false;

const stopAll = async (exitCode: number) => {
  if (stopping) return;
  stopping = true;
  if (published) rmSync(runningEnvPath(dataDir), { force: true });
  await webhooks?.stop();
  await front?.close();
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          // a child that ignores SIGTERM is not allowed to keep the port
          setTimeout(() => child.kill('SIGKILL'), 5000).unref();
        }),
    ),
  );
  process.exit(exitCode);
};

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => void stopAll(0));
}
// started by a parent that dies (a killed npm, a test runner): stop rather than linger as an orphan
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) void stopAll(0);
}, 1000).unref();

try {
  const auth = await authSettings();
  await assertPortFree(httpPort, 'PORT');
  await assertPortFree(lambdaPort, 'LAMBDA_PORT');
  await assertPortFree(dynamoPort, 'DYNAMODB_PORT');
  // serverless-offline listens behind the front server, on a port nobody needs to know
  const apiPort = await freePort();

  const dynamo = await startDynamoDbLocal({ port: dynamoPort, dataDir: join(dataDir, 'dynamodb') });
  children.push(dynamo.process);
  dynamo.process.once('exit', (code) => {
    if (!stopping) {
      process.stderr.write(
        `npm start: DynamoDB Local stopped unexpectedly (code ${code}); stopping\n`,
      );
      void stopAll(1);
    }
  });
  const client = localDynamoClient(dynamo.endpoint);
  await ensureTable(client, 'PlantsTable', PLANTS_TABLE);
  await ensureTable(client, 'WebhooksTable', WEBHOOKS_TABLE);
  const streamArn = await tableStreamArn(client, PLANTS_TABLE);
  client.destroy();
  webhooks = await startLocalWebhooks({ dataDir, say });

  // what the functions are given; published beside the data while this runs (runningEnvPath), with
  // where to invoke them, the secret too: readable by this user alone
  const functionEnv = {
    PLANTS_TABLE,
    WEBHOOKS_TABLE,
    ...auth.env,
    ...webhooks.env,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    // a caller may register a webhook endpoint on this machine, unless told otherwise (API.md)
    WEBHOOK_ALLOW_PRIVATE_URLS: process.env.WEBHOOK_ALLOW_PRIVATE_URLS || 'true',
    // DynamoDB Local and the SQS emulator accept any credentials
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  };
  const running = { ...functionEnv, AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${lambdaPort}` };
  writeFileSync(runningEnvPath(dataDir), JSON.stringify(running), { mode: 0o600 });
  published = true;

  say('Starting serverless-offline (bundling the functions)...');
  const offline = spawn(
    process.execPath,
    [
      join(repoRoot, 'node_modules', 'osls', 'bin', 'serverless.js'),
      'offline',
      'start',
      '--stage',
      'local',
      '--httpPort',
      String(apiPort),
      '--lambdaPort',
      String(lambdaPort),
    ],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...functionEnv, SLS_TELEMETRY_DISABLED: '1' },
    },
  );
  children.push(offline);
  offline.once('exit', (code) => {
    if (!stopping) {
      process.stderr.write(`npm start: serverless-offline stopped (code ${code}); stopping\n`);
      void stopAll(1);
    }
  });

  // the functions' JSON lines as a line per request (or as deployed, with --json)
  const json = process.argv.includes('--json');
  const relay = (input: NodeJS.ReadableStream, output: NodeJS.WriteStream) =>
    createInterface({ input }).on('line', (line) => {
      const shown = terminalLine(line, { json, color: output.isTTY === true });
      if (shown !== undefined) output.write(`${shown}\n`);
    });
  relay(offline.stdout as NodeJS.ReadableStream, process.stdout);
  relay(offline.stderr as NodeJS.ReadableStream, process.stderr);

  // PORT opens only once serverless-offline serves the functions (it bundles them first), so
  // that a script waiting for the port waits for the API, and never meets an answer of ours
  for (const port of [lambdaPort, apiPort]) {
    await untilListening({
      name: 'serverless-offline',
      child: offline,
      port,
      timeoutMs: 300_000,
      output: () => 'its output is above',
    });
  }
  front = await startFrontServer({
    port: httpPort,
    apiPort,
    page: async (origin) =>
      referencePage({ serverUrl: origin, localToken: await auth.pageToken?.() }),
  });
  webhooks.startPoller({ dynamodbEndpoint: dynamo.endpoint, streamArn, lambdaPort });

  const base = `http://127.0.0.1:${httpPort}`;
  say('');
  say(`Plant store ready at ${base} (DynamoDB Local on port ${dynamoPort}, data in ${dataDir})`);
  say(`API reference, to send each request from your browser: ${base}/docs`);
  say(`Tokens: ${auth.description}`);
  say(`Webhooks: each new plant is ${webhooks.description}`);
  say(
    `Webhooks and deliveries to your endpoints waiting, dead letters and poison: curl -s ${webhooks.queuesUrl}`,
  );
  say('Try it:');
  say(
    `  curl -s ${base}/plants -H "Authorization: Bearer ${auth.token}" ` +
      `-H 'Content-Type: application/json' -d '{"id":1,"name":"Monstera","tag":"indoor"}'`,
  );
  say(`Every route with curl: the README's "Two commands" and "Your own webhook endpoints".`);
  say('Press Ctrl-C to stop.');
} catch (error) {
  process.stderr.write(`npm start: ${error instanceof Error ? error.message : String(error)}\n`);
  await stopAll(1);
}
