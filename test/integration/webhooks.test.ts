// The "plant added" webhook end to end below HTTP: plants written by the store into DynamoDB
// Local, its stream read as Lambda reads it (infra/local/streamPoller.ts), the real consumer, and
// a real receiver on 127.0.0.1 that verifies every signature with the standardwebhooks package.

import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { signingKeys } from '#lib/config/webhook.ts';
import type { PlantStore } from '#lib/plants/store.ts';
import { type DeadLetterSink, folderDeadLetters } from '#lib/webhooks/deadLetters.ts';
import { deliverPlantAddedHandler } from '#lib/webhooks/deliverPlantAdded.ts';
import { localStreamsClient } from '../../infra/local/dynamoClient.ts';
import { repoRoot } from '../../infra/local/paths.ts';
import {
  type FailedBatch,
  type StreamPoller,
  startStreamPoller,
} from '../../infra/local/streamPoller.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../infra/local/webhookReceiver.ts';
import { folderLetters, redrive } from '../../infra/webhooks/redrive.ts';
import {
  createDynamoPlantStore,
  createTestTable,
  localDocumentClient,
} from '../support/dynamodbTables.ts';
import { lambdaContext } from '../support/events.ts';
import { webhookBodyViolations } from '../support/openapiResponses.ts';
import { quietTelemetry } from '../support/telemetry.ts';
import { makeWebhookSecret } from '../support/webhookSecrets.ts';

const endpoint = inject('dynamodbEndpoint');
const run = promisify(execFile);
const secret = makeWebhookSecret();

let table: Awaited<ReturnType<typeof createTestTable>>;
let store: PlantStore;
let receiver: WebhookReceiver;
let poller: StreamPoller | undefined;
let deadLetterDir: string;
let givenUp: FailedBatch[];

const target = (timeoutMs = 400) => ({
  url: receiver.url,
  signingKeys: async () => signingKeys(secret) ?? [],
  timeoutMs,
});

/** The consumer with short waits, fed by the stream as Lambda would feed it. */
const startDelivering = ({
  deadLetters = folderDeadLetters(deadLetterDir),
  attempts = 3,
  timeoutMs = 400,
  maximumRetryAttempts = 2,
}: {
  deadLetters?: DeadLetterSink;
  attempts?: number;
  timeoutMs?: number;
  maximumRetryAttempts?: number;
} = {}) => {
  const handler = deliverPlantAddedHandler({
    ...quietTelemetry(),
    target: target(timeoutMs),
    deadLetters,
    attempts,
    backoffMs: 20,
  });
  poller = startStreamPoller({
    client: localStreamsClient(endpoint),
    streamArn: table.streamArn,
    invoke: (event: DynamoDBStreamEvent) => handler(event, lambdaContext(60_000)),
    onFailure: async (batch) => {
      givenUp.push(batch);
    },
    batchSize: 10,
    maximumRetryAttempts,
    bisectBatchOnFunctionError: true,
    accepts: (record) => record.eventName === 'INSERT',
  });
};

/** Waits until `count` deliveries have arrived (or fails), then until the stream is quiet. */
const deliveries = async (count: number) => {
  const deadline = Date.now() + 15_000;
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
  deadLetterDir = mkdtempSync(join(tmpdir(), 'plant-store-dead-letters-'));
  givenUp = [];
});
afterEach(async () => {
  await poller?.stop();
  poller = undefined;
  await receiver.stop();
  await table.drop();
});

describe('the waits between attempts', () => {
  /** The consumer fed one new plant directly, its waits recorded instead of slept. */
  const deliverOne = async () => {
    const waits: number[] = [];
    const handler = deliverPlantAddedHandler({
      ...quietTelemetry(),
      target: target(),
      deadLetters: folderDeadLetters(deadLetterDir),
      attempts: 3,
      backoffMs: 20,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const image = {
      id: { N: '9' },
      name: { S: 'Aloe' },
      createdAt: { S: '2026-11-22T10:00:00.000Z' },
      createdBy: { S: 'alice' },
      version: { N: '1' },
    };
    const result = await handler(
      {
        Records: [
          {
            eventID: 'e9',
            eventName: 'INSERT',
            dynamodb: { SequenceNumber: '9', NewImage: image },
          },
        ],
      } as DynamoDBStreamEvent,
      lambdaContext(60_000),
    );
    return { waits, result };
  };

  it('are none before the first attempt', async () => {
    const { waits, result } = await deliverOne();
    expect(result).toEqual({ batchItemFailures: [] });
    expect(receiver.received).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('double after each failed attempt', async () => {
    let refusals = 2;
    receiver.answerWith(() => (refusals-- > 0 ? 500 : 200));
    const { waits } = await deliverOne();
    expect(receiver.received.map((d) => d.answered)).toEqual([500, 500, 200]);
    expect(waits).toEqual([20, 40]);
  });
});

describe('the plant added webhook', () => {
  it('delivers each new plant once, signed, and nothing for a replay, a 409, a PUT or a DELETE', async () => {
    startDelivering();
    await store.create({ id: 1, name: 'Monstera', tag: 'indoor' }, 'alice');
    await store.create({ id: 2, name: 'Fern' }, 'alice');
    await store.create({ id: 1, name: 'Monstera', tag: 'indoor' }, 'alice'); // replay
    await store.create({ id: 1, name: 'Other' }, 'alice'); // conflict
    await store.update(2, 'alice', { content: { name: 'Fern II' } });
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
    expect(readdirSync(deadLetterDir)).toEqual([]);
  });

  it('tries again with the same webhook-id after two 500s, and the plant arrives', async () => {
    let refusals = 2;
    receiver.answerWith(() => (refusals-- > 0 ? 500 : 200));
    startDelivering();
    await store.create({ id: 3, name: 'Ivy' }, 'alice');

    const received = await deliveries(3);

    expect(received.map((d) => d.answered)).toEqual([500, 500, 200]);
    expect(new Set(received.map((d) => d.webhookId)).size).toBe(1);
    expect(received.every((d) => d.verified)).toBe(true);
  });

  it('tries again after a receiver that does not answer in time', async () => {
    let first = true;
    receiver.answerWith(() => {
      if (!first) return 200;
      first = false;
      return 'hang';
    });
    startDelivering({ timeoutMs: 300 });
    await store.create({ id: 4, name: 'Aloe' }, 'alice');

    const received = await deliveries(2);

    expect(received.map((d) => d.answered)).toEqual(['hang', 200]);
    expect(received[0]?.webhookId).toBe(received[1]?.webhookId);
  });

  it('keeps the event whole when the receiver is down past the retries, and the redrive delivers it', async () => {
    receiver.answerWith(() => 503);
    startDelivering();
    await store.create({ id: 5, name: 'Cactus', tag: 'desert' }, 'alice');

    const attempts = await deliveries(3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const files = readdirSync(deadLetterDir);
    expect(files).toHaveLength(1);
    const letter = JSON.parse(readFileSync(join(deadLetterDir, files[0] ?? ''), 'utf8'));
    expect(letter).toMatchObject({
      webhookId: attempts[0]?.webhookId,
      plantId: 5,
      body: '{"id":5,"name":"Cactus","tag":"desert"}',
      attempts: 3,
      lastError: 'answered 503',
    });
    expect(givenUp).toEqual([]);

    // the receiver is back: the redrive delivers the same event, then the dead letter is gone
    receiver.answerWith(() => 200);
    const report = await redrive(folderLetters(deadLetterDir), target());

    expect(report).toMatchObject({ delivered: 1, failed: 0 });
    const redelivered = receiver.received.at(-1);
    expect(redelivered).toMatchObject({
      webhookId: letter.webhookId,
      body: letter.body,
      verified: true,
    });
    expect(readdirSync(deadLetterDir)).toEqual([]);
  });

  it('tries again only the record that failed in a batch, and gives it up after the retries', async () => {
    // the receiver refuses plant 7, and its dead letter cannot be kept either
    receiver.answerWith((delivery) => (JSON.parse(delivery.body).id === 7 ? 500 : 200));
    const folder = folderDeadLetters(deadLetterDir);
    startDelivering({
      attempts: 1,
      maximumRetryAttempts: 2,
      deadLetters: {
        put: async (letter) => {
          if (letter.plantId === 7) throw new Error('the queue is unreachable');
          await folder.put(letter);
        },
      },
    });
    for (const id of [6, 7, 8]) await store.create({ id, name: `P${id}` }, 'alice');

    await deliveries(5);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const byPlant = (id: number) =>
      receiver.received.filter((d) => JSON.parse(d.body).id === id).length;
    expect([byPlant(6), byPlant(7), byPlant(8)]).toEqual([1, 3, 1]);
    expect(givenUp).toHaveLength(1);
    expect(givenUp[0]).toMatchObject({ size: expect.any(Number) });
  });

  it('npm run webhooks:redrive delivers a folder of dead letters and removes each that arrives', async () => {
    receiver.answerWith(() => 503);
    startDelivering({ attempts: 1 });
    await store.create({ id: 9, name: 'Pilea' }, 'alice');
    await deliveries(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(readdirSync(deadLetterDir)).toHaveLength(1);

    const redriveCli = (env: Record<string, string>) =>
      run(
        process.execPath,
        [join(repoRoot, 'infra', 'webhooks', 'redriveCli.ts'), '--dir', deadLetterDir],
        {
          cwd: repoRoot,
          env: {
            PATH: process.env.PATH,
            WEBHOOK_URL: receiver.url,
            WEBHOOK_SECRET: secret,
            ...env,
          },
        },
      );
    // still refused: the letter stays, and the command says so with its exit code
    const refused = await redriveCli({}).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/0 delivered, 1 failed/);
    expect(readdirSync(deadLetterDir)).toHaveLength(1);

    receiver.answerWith(() => 200);
    const { stdout } = await redriveCli({});

    expect(stdout).toMatch(/1 delivered, 0 failed/);
    expect(readdirSync(deadLetterDir)).toEqual([]);
    const [first, ...rest] = receiver.received;
    expect(rest.at(-1)).toMatchObject({
      webhookId: first?.webhookId,
      verified: true,
      answered: 200,
    });
  });
});
