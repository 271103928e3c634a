// `npm start`: the whole service on this machine, nothing in the cloud; Ctrl-C stops everything it
// started. Its settings and what it shows: docs/local-development.md.
import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process';
import { createWriteStream, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { referencePage } from '../docs/reference.ts';
import { tableNames } from '../stage/stageData.ts';
import { localDynamoClient } from './dynamoClient.ts';
import { startDynamoDbLocal } from './dynamodbLocal.ts';
import { freePort, portSetting, stopChild, untilListening } from './freePort.ts';
import { startFrontServer } from './frontServer.ts';
import { localAuth } from './keys.ts';
import * as paths from './paths.ts';
import { ensureTable, tableStreamArn } from './tables.ts';
import { terminalLine } from './terminal.ts';
import { startLocalWebhooks } from './webhooks.ts';

const [PLANTS_TABLE, WEBHOOKS_TABLE] = tableNames('local');
const say = (line: string) => process.stdout.write(`${line}\n`);
const dataDir = paths.localDataDir();

const children: ChildProcess[] = [];
let webhooks: Awaited<ReturnType<typeof startLocalWebhooks>> | undefined;
let front: { close: () => Promise<void> } | undefined;
let stopping = false;
/** Whether this run published its functions' environment (runningEnvPath). */
let published = false;

const stopAll = async (exitCode: number) => {
  if (stopping) return;
  stopping = true;
  if (published) rmSync(paths.runningEnvPath(dataDir), { force: true });
  await webhooks?.stop();
  await front?.close();
  await Promise.all(children.map(stopChild));
  process.exit(exitCode);
};

/** A child that stopAll stops; one that exits on its own stops everything. */
const stopWith = (child: ChildProcess, stopped: string) => {
  children.push(child);
  child.once('exit', (code) => {
    if (stopping) return;
    process.stderr.write(`npm start: ${stopped} (code ${code}); stopping\n`);
    void stopAll(1);
  });
};

/** serverless-offline's output: its JSON log lines shown by terminal.ts, and appended whole to the
 * kept logs (npm run trace reads them), which past KEPT_LOG_BYTES at the start are moved aside. */
const relayOutput = (offline: ChildProcessByStdio<null, Readable, Readable>) => {
  const logs = paths.localLogsPath(dataDir);
  if ((statSync(logs, { throwIfNoEntry: false })?.size ?? 0) > paths.KEPT_LOG_BYTES)
    renameSync(logs, `${logs}.1`);
  const kept = createWriteStream(logs, { flags: 'a' });
  const json = process.argv.includes('--json');
  const relay = (input: Readable, output: NodeJS.WriteStream) =>
    createInterface({ input }).on('line', (line) => {
      if (line.startsWith('{')) kept.write(`${line}\n`);
      const shown = terminalLine(line, { json, color: output.isTTY === true });
      if (shown !== undefined) output.write(`${shown}\n`);
    });
  relay(offline.stdout, process.stdout);
  relay(offline.stderr, process.stderr);
};

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void stopAll(0));
// started by a parent that dies (a killed npm, a test runner): stop rather than linger as an orphan
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) void stopAll(0);
}, 1000).unref();

try {
  const auth = await localAuth(dataDir);
  const httpPort = await portSetting('PORT', 3000);
  // serverless-offline also opens a Lambda-invoke port; keep it next to the HTTP port
  const lambdaPort = await portSetting('LAMBDA_PORT', httpPort + 2);
  const dynamoPort = await portSetting('DYNAMODB_PORT', 8000);
  // serverless-offline listens behind the front server, on a port nobody needs to know
  const apiPort = await freePort();

  const dynamo = await startDynamoDbLocal({ port: dynamoPort, dataDir: join(dataDir, 'dynamodb') });
  stopWith(dynamo.process, 'DynamoDB Local stopped unexpectedly');
  const client = localDynamoClient(dynamo.endpoint);
  await ensureTable(client, 'PlantsTable', PLANTS_TABLE);
  await ensureTable(client, 'WebhooksTable', WEBHOOKS_TABLE);
  const streamArn = await tableStreamArn(client, PLANTS_TABLE);
  client.destroy();
  webhooks = await startLocalWebhooks(dataDir, say);

  // what the functions are given; published beside the data while this runs (runningEnvPath), with
  // where to invoke them, the secret too: readable by this user alone
  const functionEnv = {
    PLANTS_TABLE,
    WEBHOOKS_TABLE,
    ...auth.env,
    ...webhooks.env,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    // a caller may register a webhook endpoint on this machine, unless told otherwise (docs/api.md, "A caller's endpoint")
    WEBHOOK_ALLOW_PRIVATE_URLS: process.env.WEBHOOK_ALLOW_PRIVATE_URLS || 'true',
    // DynamoDB Local and the SQS emulator accept any credentials
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  };
  const running = { ...functionEnv, AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${lambdaPort}` };
  writeFileSync(paths.runningEnvPath(dataDir), JSON.stringify(running), { mode: 0o600 });
  published = true;

  say('Starting serverless-offline (bundling the functions)...');
  const ports = ['--httpPort', String(apiPort), '--lambdaPort', String(lambdaPort)];
  const offline = spawn(
    process.execPath,
    [paths.serverlessCli, 'offline', 'start', '--stage', 'local', ...ports],
    {
      cwd: paths.repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...functionEnv, SLS_TELEMETRY_DISABLED: '1' },
    },
  );
  relayOutput(offline);
  stopWith(offline, 'serverless-offline stopped');
  // once it serves (it bundles first): PORT opens only then, for whoever waits for it
  for (const port of [lambdaPort, apiPort])
    await untilListening('serverless-offline', offline, port, 300_000, () => 'its output is above');
  front = await startFrontServer({
    port: httpPort,
    apiPort,
    page: async (origin) =>
      referencePage({ serverUrl: origin, localToken: await auth.pageToken?.() }),
    // as infra/cors.cjs reads it
    cors: /\S/.test(process.env.CORS_ALLOWED_ORIGINS?.replaceAll(',', '') ?? ''),
  });
  webhooks.startPoller(dynamo.endpoint, streamArn, lambdaPort);

  const base = `http://127.0.0.1:${httpPort}`;
  say(`
Plant store ready at ${base} (DynamoDB Local on port ${dynamoPort}, data in ${dataDir})
API reference, to send each request from your browser: ${base}/docs
Tokens: ${auth.description}
Webhooks: each new plant is ${webhooks.description}
Webhooks and deliveries to your endpoints waiting, dead letters and poison: curl -s ${webhooks.queuesUrl}
Try it:
  curl -s ${base}/plants -H "Authorization: Bearer ${auth.token}" -H 'Content-Type: application/json' -d '{"id":1,"name":"Monstera","tag":"indoor"}'
Every route with curl: docs/local-development.md and docs/webhooks.md.
Press Ctrl-C to stop.`);
} catch (error) {
  process.stderr.write(`npm start: ${error instanceof Error ? error.message : String(error)}\n`);
  await stopAll(1);
}
