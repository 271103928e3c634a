// The webhook rides out a receiver's outage, through `npm start` over real HTTP: the receiver
// refuses connections for 20 s while plants are created, and every plant arrives once it is
// back; a plant created while others wait arrives within seconds; 429 with Retry-After, 503s,
// 410 and a used-up schedule do what docs/webhooks.md says, and `npm run webhooks:redrive` offers the
// running npm start's dead letters again (the webhook's, the stream's); an event waiting when
// `npm start` stops is delivered after it starts again; a bad WEBHOOK_RETRY_SCHEDULE stops it, named.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamInsertEvent } from '../../infra/events/webhooks.mjs';
import { localClientConfig } from '../../infra/local/dynamoClient.ts';
import { freePort } from '../../infra/local/freePort.ts';
import { repoRoot, runningEnv } from '../../infra/local/paths.ts';
import { type LocalService, spawnStart, startLocalService } from '../support/localService.ts';
import { queuedBodies } from '../support/localSqs.ts';
import {
  type Answer,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../support/webhookReceiver.ts';
import { makeWebhookSecret } from '../support/webhookSecrets.ts';

const run = promisify(execFile);
const secret = makeWebhookSecret();
const SCHEDULE = '2s,4s,8s,16s,32s';
const dataDir = mkdtempSync(join(tmpdir(), 'plant-store-retries-e2e-'));
let port: number;
let receiver: WebhookReceiver | undefined;
let service: LocalService;
let token: string;
/** How the receiver answers each plant, by id (200 for any other). */
const answers = new Map<number, () => Answer>();

const startReceiver = async () => {
  receiver = await startWebhookReceiver({ secrets: secret, port });
  receiver.answerWith((delivery) => answers.get(JSON.parse(delivery.body).id)?.() ?? 200);
};
const start = async () => {
  service = await startLocalService(dataDir, {
    WEBHOOK_URL: `http://127.0.0.1:${port}/webhooks/plant-added`,
    WEBHOOK_SECRET: secret,
    WEBHOOK_RETRY_SCHEDULE: SCHEDULE,
  });
  token = (await service.token()).trim();
};
/** Every delivery so far (a restarted receiver's too), with the plant's id. */
const delivered: { id: number; webhookId: string; answered: Answer; at: number }[] = [];
const collect = () => {
  for (const d of receiver?.received.splice(0) ?? []) {
    delivered.push({
      id: JSON.parse(d.body).id,
      webhookId: d.webhookId,
      answered: d.answered,
      at: d.receivedAt,
    });
  }
};
const deliveriesOf = (id: number) => {
  collect();
  return delivered.filter((d) => d.id === id);
};
const until = async (done: () => boolean | Promise<boolean>, withinMs: number, what: string) => {
  const deadline = Date.now() + withinMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};
const create = async (id: number, name: string) => {
  const response = await fetch(`${service.baseUrl}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id, name }),
  });
  expect(response.status).toBe(200);
  return Date.now();
};
/** What waits in a queue of the npm start running on `folder`, read without receiving it. */
const queued = async (queue: string, folder = dataDir) =>
  (await queuedBodies(runningEnv(folder)?.AWS_ENDPOINT_URL_SQS ?? '', queue)).map((body) =>
    JSON.parse(body),
  );
const deadLetters = (folder = dataDir) => queued('plant-store-local-webhook-dead-letters', folder);

beforeAll(async () => {
  port = await freePort();
  await startReceiver();
  await start();
});
afterAll(async () => {
  await service?.stop();
  await receiver?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('webhook delivery through npm start', () => {
  it('delivers every plant created during a 20 s outage once the receiver is back, one webhook-id each', async () => {
    await receiver?.stop();
    receiver = undefined;
    const ids = [1, 2, 3];
    for (const id of ids) await create(id, `Outage ${id}`);
    await new Promise((resolve) => setTimeout(resolve, 20_000));
    await startReceiver();

    await until(
      () => ids.every((id) => deliveriesOf(id).some((d) => d.answered === 200)),
      40_000,
      'every plant delivered after the outage',
    );
    for (const id of ids) expect(new Set(deliveriesOf(id).map((d) => d.webhookId)).size).toBe(1);
    expect(await deadLetters()).toEqual([]);
  }, 90_000);

  it('delivers a plant created while another waits for its next attempt within seconds', async () => {
    answers.set(10, () => 503);
    await create(10, 'Waiting');
    await until(() => deliveriesOf(10).length > 0, 10_000, 'a first attempt');
    const createdAt = await create(11, 'Welcome');

    await until(() => deliveriesOf(11).length > 0, 5000, 'the new plant');
    expect((deliveriesOf(11)[0]?.at ?? 0) - createdAt).toBeLessThan(5000);
    answers.set(10, () => 200);
  });

  it('waits at least a 429 Retry-After, and follows the schedule after 503s', async () => {
    let throttled = true;
    answers.set(20, () => {
      if (!throttled) return 200;
      throttled = false;
      return { status: 429, headers: { 'Retry-After': '5' } };
    });
    let refusals = 2;
    answers.set(21, () => (refusals-- > 0 ? 503 : 200));
    await create(20, 'Throttled');
    await create(21, 'Refused twice');

    await until(() => deliveriesOf(20).length >= 2, 20_000, 'the throttled plant');
    await until(() => deliveriesOf(21).length >= 3, 20_000, 'the refused plant');
    const [throttledAt, retriedAt] = deliveriesOf(20).map((d) => d.at);
    expect((retriedAt ?? 0) - (throttledAt ?? 0)).toBeGreaterThanOrEqual(5000);
    const [first, second, third] = deliveriesOf(21).map((d) => d.at);
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(2000);
    expect((third ?? 0) - (second ?? 0)).toBeGreaterThanOrEqual(4000);
  });

  it('stops after one attempt on 410 Gone, and keeps a dead letter saying why', async () => {
    answers.set(30, () => 410);
    await create(30, 'Gone');

    await until(
      async () => (await deadLetters()).some((letter) => letter.plantId === 30),
      10_000,
      'a dead letter',
    );
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(deliveriesOf(30)).toHaveLength(1);
    expect((await deadLetters()).find((letter) => letter.plantId === 30)).toMatchObject({
      attempts: 1,
      lastError: expect.stringMatching(/410 Gone/),
    });
  });

  it('delivers an event that waits while npm start is stopped, after it starts again', async () => {
    answers.set(40, () => 503);
    await create(40, 'Across a restart');
    await until(() => deliveriesOf(40).length > 0, 10_000, 'a first attempt');
    await service.stop();
    answers.set(40, () => 200);
    await start();

    await until(
      () => deliveriesOf(40).some((d) => d.answered === 200),
      30_000,
      'the delivery after the restart',
    );
    expect(new Set(deliveriesOf(40).map((d) => d.webhookId)).size).toBe(1);
    // a whole stop and start (bundling the functions again) and the wait: more on a loaded machine
  }, 150_000);
});

describe('a used-up schedule through npm start', () => {
  it('keeps the event as a dead letter, and the redrive delivers it with its webhook-id; a stream record set aside goes back to its function', async () => {
    const shortDataDir = mkdtempSync(join(tmpdir(), 'plant-store-used-up-e2e-'));
    const short = await startLocalService(shortDataDir, {
      WEBHOOK_URL: `http://127.0.0.1:${port}/webhooks/plant-added`,
      WEBHOOK_SECRET: secret,
      WEBHOOK_RETRY_SCHEDULE: '1s,1s',
    });
    // the running npm start's queues, receiver and functions: nothing else to give
    const redriveCli = (...args: string[]) =>
      run(process.execPath, [join(repoRoot, 'infra', 'webhooks', 'redriveCli.ts'), ...args], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH, PLANTS_LOCAL_DATA: shortDataDir },
      });
    try {
      answers.set(50, () => 503);
      const shortToken = (await short.token()).trim();
      const response = await fetch(`${short.baseUrl}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${shortToken}`, 'content-type': 'application/json' },
        body: '{"id":50,"name":"Given up"}',
      });
      expect(response.status).toBe(200);
      await until(
        async () => (await deadLetters(shortDataDir)).length > 0,
        20_000,
        'a dead letter',
      );
      const [letter] = await deadLetters(shortDataDir);
      expect(letter).toMatchObject({
        plantId: 50,
        attempts: 3,
        lastError: 'answered 503; the retry schedule is used up after 3 attempts',
      });

      answers.set(50, () => 200);
      expect((await redriveCli()).stdout).toMatch(/1 delivered, 0 failed/);
      expect(deliveriesOf(50).at(-1)).toMatchObject({ webhookId: letter.webhookId, answered: 200 });
      expect(new Set(deliveriesOf(50).map((d) => d.webhookId)).size).toBe(1);
      expect(await deadLetters(shortDataDir)).toEqual([]);

      // a plant's insert set aside whole by deliverPlantAdded, offered to it again through
      // serverless-offline's Lambda Invoke
      const record = streamInsertEvent(
        '60',
        marshall({ id: 60, name: 'Set aside', createdAt: new Date().toISOString() }),
      ).Records[0];
      const running = runningEnv(shortDataDir) ?? {};
      const sqs = new SQSClient(localClientConfig(running.AWS_ENDPOINT_URL_SQS ?? ''));
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: running.STREAM_DEAD_LETTER_QUEUE_URL,
          MessageBody: JSON.stringify({
            functionName: 'plant-store-local-deliverPlantAdded',
            reason: 'set aside by hand',
            failedAt: new Date().toISOString(),
            record,
          }),
        }),
      );
      sqs.destroy();
      expect((await redriveCli('--stream')).stdout).toMatch(/1 taken, 0 failed/);
      expect(deliveriesOf(60)).toMatchObject([{ answered: 200 }]);
      expect(await queued('plant-store-local-stream-dead-letters', shortDataDir)).toEqual([]);
    } finally {
      await short.stop();
      rmSync(shortDataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('a bad WEBHOOK_RETRY_SCHEDULE', () => {
  it.each(['5x', '-1s', '5s,,5m', '13h'])(
    '%s stops npm start, naming the setting',
    async (schedule) => {
      const badDataDir = mkdtempSync(join(tmpdir(), 'plant-store-bad-schedule-'));
      const started = spawnStart({
        PORT: String(await freePort()),
        LAMBDA_PORT: String(await freePort()),
        DYNAMODB_PORT: String(await freePort()),
        PLANTS_LOCAL_DATA: badDataDir,
        WEBHOOK_RETRY_SCHEDULE: schedule,
      });
      const exitCode = await started.exited;
      rmSync(badDataDir, { recursive: true, force: true });
      expect(exitCode).not.toBe(0);
      expect(started.output()).toMatch(/WEBHOOK_RETRY_SCHEDULE must be waits separated by commas/);
    },
  );
});
