// The "plant added" webhook end to end below HTTP: plants written by the store into DynamoDB
// Local, its stream read as Lambda reads it (infra/local/streamPoller.ts), the first attempt from
// the stream consumer, the later ones from the retry queue (npm start's SQS emulator, polled as
// Lambda's SQS event source does), and a real receiver on 127.0.0.1 that verifies every signature
// with the standardwebhooks package.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { signingKeys } from '#lib/config/webhook.ts';
import { deliverPlantAddedHandler } from '#lib/operatorWebhook/deliverPlantAdded.ts';
import { retryPlantAddedHandler } from '#lib/operatorWebhook/retryPlantAdded.ts';
import type { PlantStore } from '#lib/plants/store.ts';
import { replacedBy } from '#lib/plants/store.ts';
import type { Telemetry } from '#lib/telemetry.ts';
import type { StreamDeadLetter } from '#lib/webhooks/batchResponse.ts';
import { type DeadLetterSink, sqsDeadLetters } from '#lib/webhooks/deadLetters.ts';
import { sqsRetryQueue, type WaitingEvent } from '#lib/webhooks/retries.ts';
import { localStreamsClient } from '../../infra/local/dynamoClient.ts';
import { repoRoot, runningEnvPath } from '../../infra/local/paths.ts';
import { type QueuePoller, startQueuePoller } from '../../infra/local/queuePoller.ts';
import { type LocalSqs, startLocalSqs } from '../../infra/local/sqs.ts';
import type { FailedBatch } from '../../infra/local/streamPoller.ts';
import { type StreamPoller, startStreamPoller } from '../../infra/local/streamPoller.ts';
import { queueLetters, redrive } from '../../infra/webhooks/redrive.ts';
import {
  createDynamoPlantStore,
  createTestTable,
  localDocumentClient,
} from '../support/dynamodbTables.ts';
import { lambdaContext } from '../support/events.ts';
import { queuedBodies } from '../support/localSqs.ts';
import { webhookBodyViolations } from '../support/openapiResponses.ts';
import { quietTelemetry, recordTelemetry } from '../support/telemetry.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';
import { makeWebhookSecret } from '../support/webhookSecrets.ts';

const endpoint = inject('dynamodbEndpoint');
const run = promisify(execFile);
const secret = makeWebhookSecret();

let table: Awaited<ReturnType<typeof createTestTable>>;
let store: PlantStore;
let receiver: WebhookReceiver;
let poller: StreamPoller | undefined;
let retries: QueuePoller | undefined;
let sqs: LocalSqs | undefined;
let sqsClient: SQSClient;
/** This test's folder: the queues' database, and what a running npm start would publish. */
let dataDir: string;
let givenUp: FailedBatch[];

const target = (timeoutMs = 400) => ({
  url: receiver.url,
  signingKeys: async () => signingKeys(secret) ?? [],
  timeoutMs,
});

/** The dead letters kept, read without receiving them. */
const deadLetters = async () =>
  (await queuedBodies(sqs?.endpoint ?? '', 'dead-letters')).map((body) => JSON.parse(body));

/** Both consumers, fed by the stream and the retry queue as Lambda would feed them. */
const startDelivering = async ({
  schedule = [1000, 1000],
  deadLetterSink = (queue: DeadLetterSink) => queue,
  timeoutMs = 400,
  maximumRetryAttempts = 2,
  telemetry = quietTelemetry(),
}: {
  telemetry?: Telemetry;
  schedule?: number[];
  /** The dead letters as the functions see them: the queue, or a sink in front of it. */
  deadLetterSink?: (queue: DeadLetterSink) => DeadLetterSink;
  timeoutMs?: number;
  maximumRetryAttempts?: number;
} = {}) => {
  sqs = await startLocalSqs({
    dir: join(dataDir, 'sqs'),
    queues: {
      retries: { visibilityTimeoutSeconds: 30 },
      'dead-letters': {},
      'stream-dead-letters': {},
    },
  });
  sqsClient = sqs.client;
  const dependencies = {
    ...telemetry,
    target: target(timeoutMs),
    schedule,
    retryQueue: sqsRetryQueue(sqsClient, sqs.queueUrl('retries')),
    deadLetters: deadLetterSink(sqsDeadLetters(sqsClient, sqs.queueUrl('dead-letters'))),
    streamDeadLetters: sqsDeadLetters<StreamDeadLetter>(
      sqsClient,
      sqs.queueUrl('stream-dead-letters'),
    ),
  };
  const first = deliverPlantAddedHandler(dependencies);
  const later = retryPlantAddedHandler(dependencies);
  poller = startStreamPoller({
    client: localStreamsClient(endpoint),
    streamArn: table.streamArn,
    invoke: (event: DynamoDBStreamEvent) => first(event, lambdaContext(60_000)),
    onFailure: async (batch) => {
      givenUp.push(batch);
    },
    batchSize: 10,
    maximumRetryAttempts,
    accepts: (record) => record.eventName === 'INSERT',
  });
  retries = startQueuePoller({
    client: sqsClient,
    queueUrl: sqs.queueUrl('retries'),
    batchSize: 10,
    pollIntervalMs: 100,
    invoke: (event: SQSEvent) => later(event, lambdaContext(60_000)),
  });
};

/** Waits until `count` deliveries have arrived (or fails), then until the stream is quiet. */
const deliveries = async (count: number) => {
  const deadline = Date.now() + 20_000;
  while (receiver.received.length < count) {
    if (Date.now() > deadline) {
      throw new Error(`${receiver.received.length} deliveries arrived, expected ${count}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await poller?.drained();
  return receiver.received;
};

beforeEach(async () => {
  table = await createTestTable(endpoint);
  store = createDynamoPlantStore({ client: localDocumentClient(endpoint), table: table.name });
  receiver = await startWebhookReceiver({ secrets: secret });
  dataDir = mkdtempSync(join(tmpdir(), 'plant-store-webhooks-'));
  givenUp = [];
});
afterEach(async () => {
  await poller?.stop();
  await retries?.stop();
  await sqs?.stop();
  poller = undefined;
  retries = undefined;
  sqs = undefined;
  await receiver.stop();
  await table.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the plant added webhook', () => {
  it('delivers each new plant once, signed, and nothing for a replay, a 409, a PUT or a DELETE', async () => {
    await startDelivering();
    await store.create({ id: 1, name: 'Monstera', tag: 'indoor' }, 'alice');
    await store.create({ id: 2, name: 'Fern' }, 'alice');
    await store.create({ id: 1, name: 'Monstera', tag: 'indoor' }, 'alice'); // replay
    await store.create({ id: 1, name: 'Other' }, 'alice'); // conflict
    await store.update(2, 'alice', { changes: replacedBy({ name: 'Fern II' }) });
    await store.delete(1, 'alice');

    const received = await deliveries(2);
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(received.map((d) => JSON.parse(d.body))).toEqual([
      { id: 1, name: 'Monstera', tag: 'indoor' },
      { id: 2, name: 'Fern' },
    ]);
    expect(received.every((d) => d.verified && d.answered === 200)).toBe(true);
    // the body is what the published document says a receiver gets
    expect(received.flatMap((d) => webhookBodyViolations(d.body))).toEqual([]);
    expect(new Set(received.map((d) => d.webhookId)).size).toBe(2);
    expect(await deadLetters()).toEqual([]);
  });

  it('tries again after each step of the schedule, with the same webhook-id, until it arrives', async () => {
    let refusals = 2;
    receiver.answerWith(() => (refusals-- > 0 ? 500 : 200));
    await startDelivering({ schedule: [1000, 2000, 1000] });
    await store.create({ id: 3, name: 'Ivy' }, 'alice');

    const received = await deliveries(3);

    expect(received.map((d) => d.answered)).toEqual([500, 500, 200]);
    expect(new Set(received.map((d) => d.webhookId)).size).toBe(1);
    expect(received.every((d) => d.verified)).toBe(true);
    const [first, second, third] = received.map((d) => d.receivedAt);
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(1000);
    expect((third ?? 0) - (second ?? 0)).toBeGreaterThanOrEqual(2000);
  });

  it("writes the adding request's trace id on every attempt's line, the retry's too", async () => {
    const traceId = '1-6a1b2c3d-0123456789abcdef01234567';
    const telemetry = recordTelemetry();
    let refusals = 1;
    receiver.answerWith(() => (refusals-- > 0 ? 500 : 200));
    await startDelivering({ schedule: [1000], telemetry });
    const client = localDocumentClient(endpoint);
    const traced = createDynamoPlantStore({ client, table: table.name, traceId: () => traceId });
    await traced.create({ id: 4, name: 'Ivy' }, 'alice');

    await deliveries(2);

    const lines = telemetry.documents().filter(({ plantId }) => plantId === 4);
    expect(lines.map(({ message, request_trace_id }) => [message, request_trace_id])).toEqual([
      ['webhook attempt failed; it waits for the next', traceId],
      ['webhook delivered', traceId],
    ]);
  });

  it('tries again after a receiver that does not answer in time', async () => {
    let first = true;
    receiver.answerWith(() => {
      if (!first) return 200;
      first = false;
      return 'hang';
    });
    await startDelivering({ timeoutMs: 300 });
    await store.create({ id: 4, name: 'Aloe' }, 'alice');

    const received = await deliveries(2);

    expect(received.map((d) => d.answered)).toEqual(['hang', 200]);
    expect(received[0]?.webhookId).toBe(received[1]?.webhookId);
  });

  it("waits a 429's Retry-After when it is longer than the schedule's step", async () => {
    let throttled = true;
    receiver.answerWith(() => {
      if (!throttled) return 200;
      throttled = false;
      return { status: 429, headers: { 'Retry-After': '3' } };
    });
    await startDelivering({ schedule: [1000] });
    await store.create({ id: 10, name: 'Oak' }, 'alice');

    const [throttledAt, deliveredAt] = (await deliveries(2)).map((d) => d.receivedAt);

    expect((deliveredAt ?? 0) - (throttledAt ?? 0)).toBeGreaterThanOrEqual(3000);
  });

  it('gives an event up at once on 410 Gone, as a dead letter saying why', async () => {
    receiver.answerWith(() => 410);
    await startDelivering();
    await store.create({ id: 11, name: 'Elm' }, 'alice');

    await deliveries(1);
    await new Promise((resolve) => setTimeout(resolve, 2500));

    expect(receiver.received).toHaveLength(1);
    expect(await deadLetters()).toEqual([
      expect.objectContaining({
        plantId: 11,
        attempts: 1,
        lastError: expect.stringMatching(/410 Gone/),
      }),
    ]);
  });

  it('holds back no plant behind one that waits for its next attempt', async () => {
    receiver.answerWith((delivery) => (JSON.parse(delivery.body).id === 12 ? 503 : 200));
    await startDelivering({ schedule: [30_000] });
    await store.create({ id: 12, name: 'Refused' }, 'alice');
    await deliveries(1);
    const createdAt = Date.now();
    await store.create({ id: 13, name: 'Welcome' }, 'alice');

    const received = await deliveries(2);

    expect(received.map((d) => [JSON.parse(d.body).id, d.answered])).toEqual([
      [12, 503],
      [13, 200],
    ]);
    expect((received[1]?.receivedAt ?? 0) - createdAt).toBeLessThan(3000);
  });

  it("holds an event the queue gives early until it is due (a wait over SQS's 15-minute delay)", async () => {
    await startDelivering();
    const dueAt = Date.now() + 3000;
    const waiting: WaitingEvent = {
      webhookId: 'msg_early',
      plantId: 14,
      body: '{"id":14,"name":"Early"}',
      attempts: 1,
      lastError: 'answered 503',
      dueAt,
    };
    await sqsClient.send(
      new SendMessageCommand({
        QueueUrl: sqs?.queueUrl('retries'),
        MessageBody: JSON.stringify(waiting),
      }),
    );

    const [delivered] = await deliveries(1);

    expect(delivered).toMatchObject({ webhookId: 'msg_early', answered: 200 });
    expect(delivered?.receivedAt).toBeGreaterThanOrEqual(dueAt - 1000);
  });

  it('keeps the event whole when the schedule is used up, and the redrive delivers it', async () => {
    receiver.answerWith(() => 503);
    await startDelivering({ schedule: [1000, 1000] });
    await store.create({ id: 5, name: 'Cactus', tag: 'desert' }, 'alice');

    const attempts = await deliveries(3);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const letters = await deadLetters();
    expect(letters).toHaveLength(1);
    const [letter] = letters;
    expect(letter).toMatchObject({
      webhookId: attempts[0]?.webhookId,
      plantId: 5,
      body: '{"id":5,"name":"Cactus","tag":"desert"}',
      attempts: 3,
      lastError: 'answered 503; the retry schedule is used up after 3 attempts',
    });
    expect(givenUp).toEqual([]);

    // the receiver is back: the redrive delivers the same event, then the dead letter is gone
    receiver.answerWith(() => 200);
    const report = await redrive(
      queueLetters(sqsClient, sqs?.queueUrl('dead-letters') ?? ''),
      target(),
    );

    expect(report).toMatchObject({ delivered: 1, failed: 0 });
    expect(receiver.received.at(-1)).toMatchObject({
      webhookId: letter.webhookId,
      body: letter.body,
      verified: true,
    });
    expect(await deadLetters()).toEqual([]);
  });

  it('offers a record again from the stream only when neither queue could keep it', async () => {
    receiver.answerWith((delivery) => (JSON.parse(delivery.body).id === 7 ? 410 : 200));
    await startDelivering({
      maximumRetryAttempts: 2,
      deadLetterSink: (queue) => ({
        put: async (letter) => {
          if (letter.plantId === 7) throw new Error('the queue is unreachable');
          await queue.put(letter);
        },
      }),
    });
    for (const id of [6, 7, 8]) await store.create({ id, name: `P${id}` }, 'alice');

    await deliveries(5);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const byPlant = (id: number) =>
      receiver.received.filter((d) => JSON.parse(d.body).id === id).length;
    expect(byPlant(7)).toBe(3);
    expect(givenUp).toHaveLength(1);
  });

  it("npm run webhooks:redrive delivers the running npm start's dead letters, or a named queue's, and removes each that arrives", async () => {
    receiver.answerWith(() => 503);
    await startDelivering({ schedule: [] });
    await store.create({ id: 9, name: 'Pilea' }, 'alice');
    await deliveries(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await deadLetters()).toHaveLength(1);

    const queueUrl = sqs?.queueUrl('dead-letters') ?? '';
    const sqsSettings = {
      AWS_ENDPOINT_URL_SQS: sqs?.endpoint ?? '',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    };
    const redriveCli = (args: string[], env: Record<string, string>) =>
      run(process.execPath, [join(repoRoot, 'infra', 'webhooks', 'redriveCli.ts'), ...args], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH, ...env },
      }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
    // a named queue, still refused: the letter stays, and the command says so with its exit code
    const refused = await redriveCli(['--queue-url', queueUrl], {
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: secret,
      ...sqsSettings,
    });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/0 delivered, 1 failed/);
    expect(await deadLetters()).toHaveLength(1);

    // no queue named, and no npm start running: it says what to do
    const none = await redriveCli([], { PLANTS_LOCAL_DATA: join(dataDir, 'none') });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      `no --queue-url, and no npm start is running on ${join(dataDir, 'none')}: start it in another terminal (npm start)`,
    );

    // the queue, receiver and secret of the npm start running on the data folder, as it publishes
    // them; the letter that failed is offered again at once
    writeFileSync(
      runningEnvPath(dataDir),
      JSON.stringify({
        WEBHOOK_URL: receiver.url,
        WEBHOOK_SECRET: secret,
        WEBHOOK_DEAD_LETTER_QUEUE_URL: queueUrl,
        ...sqsSettings,
      }),
    );
    const running = { PLANTS_LOCAL_DATA: dataDir };
    receiver.answerWith(() => 200);
    // a message that is no dead letter is kept and reported, and the others are still delivered
    await sqsClient.send(
      new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'not a dead letter' }),
    );
    const junk = await redriveCli([], running);
    expect(junk.stdout).toMatch(/1 delivered, 1 failed/);
    expect(await queuedBodies(sqs?.endpoint ?? '', 'dead-letters')).toEqual(['not a dead letter']);
    const { Messages = [] } = await sqsClient.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 1 }),
    );
    await sqsClient.send(
      new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: Messages[0]?.ReceiptHandle }),
    );
    const { stdout, code } = await redriveCli([], running);

    expect({ stdout, code }).toEqual({
      stdout: 'webhooks:redrive: 0 delivered, 0 failed\n',
      code: 0,
    });
    expect(await deadLetters()).toEqual([]);
    const [first, ...rest] = receiver.received;
    expect(rest.at(-1)).toMatchObject({
      webhookId: first?.webhookId,
      verified: true,
      answered: 200,
    });
  });
});
