// What the functions run against, on this machine: DynamoDB Local (in memory) with the plants
// table and the webhooks table, the signing keys behind a JWKS URL, DynamoDB, SQS and S3 stubbed
// in a process of their own, and the meter (bench/meter.ts), which is also the webhooks' receiver.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { localDynamoClient } from '../infra/local/dynamoClient.ts';
import { startDynamoDbLocal } from '../infra/local/dynamodbLocal.ts';
import { freePort } from '../infra/local/freePort.ts';
import { ensureLocalKeys } from '../infra/local/keys.ts';
import { repoRoot } from '../infra/local/paths.ts';
import { ensureTable } from '../infra/local/tables.ts';
import { startJwksServer } from '../test/support/jwksServer.ts';
import { stubItems } from './endpointItems.ts';
import { startMeter } from './meter.ts';
import { say } from './settings.ts';

export const PLANTS_TABLE = 'plants-bench';
export const WEBHOOKS_TABLE = 'webhooks-bench';

/** Starts the stack, pushing each part's stop onto `stops` as soon as the part is up. */
export const startStack = async (stops: (() => unknown)[]) => {
  const work = mkdtempSync(join(tmpdir(), 'plant-store-bench-'));
  stops.push(() => rmSync(work, { recursive: true, force: true }));
  say('Starting DynamoDB Local (in memory)...');
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  stops.push(() => dynamo.stop());
  const dynamoClient = localDynamoClient(dynamo.endpoint);
  stops.push(() => dynamoClient.destroy());
  await ensureTable(dynamoClient, 'PlantsTable', PLANTS_TABLE);
  await ensureTable(dynamoClient, 'WebhooksTable', WEBHOOKS_TABLE);

  const keys = await ensureLocalKeys(work);
  // keys from a JWKS URL, as every deployed stage has them: each cold start fetches them once
  const jwks = await startJwksServer(JSON.parse(readFileSync(keys.jwksPath, 'utf8')));
  stops.push(() => jwks.stop());

  // a process of their own, so that each cold start loads node:http itself, as the handler does
  // in Lambda; its receiver also takes the webhook's runs with the store, over real sockets
  const stubsProcess = spawn(process.execPath, [join(repoRoot, 'bench', 'probe.mjs'), 'stubs'], {
    env: { PATH: process.env.PATH, WEBHOOKS_TABLE, BENCH_STUB_ITEMS: stubItems() },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  stops.push(() => stubsProcess.stdin.end());
  const [stubsLine] = await once(createInterface({ input: stubsProcess.stdout }), 'line');
  const stubs = JSON.parse(stubsLine) as Record<string, string> & { AWS_ENDPOINT_URL_SQS: string };
  const meter = await startMeter(dynamo.endpoint, stubs.AWS_ENDPOINT_URL_SQS);
  stops.push(() => meter.stop());
  return {
    /** This run's own directory: bundles, tokens, keys, figures. */
    work,
    dynamoEndpoint: dynamo.endpoint,
    dynamoClient,
    keys,
    jwksUrl: jwks.url,
    /** The stubs' URLs (DynamoDB's, SQS's, the queues', S3's), all answering success at once. */
    // every webhook POST of the bench to the meter's receiver, which counts its bytes
    stubs: { ...stubs, WEBHOOK_URL: meter.receiver },
    /** The proxy the memory runs' AWS calls go through, counted; its /hooks is the receiver. */
    meter,
  };
};
export type Stack = Awaited<ReturnType<typeof startStack>>;
