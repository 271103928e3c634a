// The "plant added" webhook's parts on their own: Standard Webhooks signatures (checked by the
// standardwebhooks package's own verify), the event made of a stream record, how a delivery's
// outcome is classified against a real local receiver, and the settings.
import { KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '#lib/config/load.ts';
import { retrySchedule, signingKeys, webhookSettings } from '#lib/config/webhook.ts';
import { attemptDelivery } from '#lib/operatorWebhook/attempt.ts';
import { plantAddedEvent } from '#lib/operatorWebhook/plantAdded.ts';
import { handleEach } from '#lib/webhooks/batchResponse.ts';
import { deliverOnce, retryAfter } from '#lib/webhooks/delivery.ts';
import {
  nextStep,
  sqsRetryQueue,
  tenantOf,
  type WaitingEvent,
  waitingEventOf,
} from '#lib/webhooks/retries.ts';
import { signatureHeader } from '#lib/webhooks/signature.ts';
import { sendMessages, sqsClient } from '#lib/webhooks/sqsMessages.ts';
import { freePort, listenLocally } from '../../infra/local/freePort.ts';
import { lambdaContext } from '../support/events.ts';
import { quietTelemetry } from '../support/telemetry.ts';
import { makeWebhookSecret } from '../support/webhookSecrets.ts';

const body = '{"id":1,"name":"Monstera","tag":"indoor"}';

const headersFor = (secrets: string, id = 'msg_1', timestamp = Math.floor(Date.now() / 1000)) => ({
  'webhook-id': id,
  'webhook-timestamp': String(timestamp),
  'webhook-signature': signatureHeader(signingKeys(secrets) ?? [], { id, timestamp, body }),
});

describe('signatures', () => {
  it('verify with the standardwebhooks package', () => {
    const secret = makeWebhookSecret();
    expect(new Webhook(secret).verify(body, headersFor(secret))).toEqual(JSON.parse(body));
  });

  it('carry one signature per secret during a rotation, each verifying alone', () => {
    const [old, next] = [makeWebhookSecret(), makeWebhookSecret()];
    const headers = headersFor(`${old} ${next}`);

    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(old).verify(body, headers)).toBeTruthy();
    expect(new Webhook(next).verify(body, headers)).toBeTruthy();
  });

  it('fail with another secret, an altered body, another id or an old timestamp', () => {
    const secret = makeWebhookSecret();
    const headers = headersFor(secret);

    expect(() => new Webhook(makeWebhookSecret()).verify(body, headers)).toThrow();
    expect(() =>
      new Webhook(secret).verify(body.replace('Monstera', 'Monsterb'), headers),
    ).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow();
    const old = headersFor(secret, 'msg_1', Math.floor(Date.now() / 1000) - 600);
    expect(() => new Webhook(secret).verify(body, old)).toThrow(/timestamp/i);
  });

  it.each([
    ['no prefix', 'c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0'],
    ['a key too short', `whsec_${Buffer.from('short').toString('base64')}`],
    ['not base64', 'whsec_not*base64'],
    ['nothing', '   '],
    ['one good, one bad', `${makeWebhookSecret()} whsec_`],
  ])('refuses %s as a secret', (_case, secrets) => {
    expect(signingKeys(secrets)).toBeUndefined();
  });
});

describe('the plant added event', () => {
  const insert = (image: Record<string, unknown>, eventName = 'INSERT'): DynamoDBRecord =>
    ({ eventID: 'e1', eventName, dynamodb: { NewImage: image } }) as DynamoDBRecord;
  const image = (id: string, createdAt: string, tag?: string) => ({
    id: { N: id },
    name: { S: 'Monstera' },
    ...(tag ? { tag: { S: tag } } : {}),
    createdAt: { S: createdAt },
    createdBy: { S: 'alice' },
    version: { N: '1' },
  });

  it('is the published NewPlant: id, name and tag, and nothing of the store', () => {
    const event = plantAddedEvent(insert(image('7', '2026-11-22T10:00:00.000Z', 'indoor')));

    expect(JSON.parse(event.body)).toStrictEqual({ id: 7, name: 'Monstera', tag: 'indoor' });
    expect(
      JSON.parse(plantAddedEvent(insert(image('-3', '2026-11-22T10:00:00.000Z'))).body),
    ).toStrictEqual({ id: -3, name: 'Monstera' });
  });

  it('names its owner, whose tenant its retries are on the fair retry queue', async () => {
    const event = plantAddedEvent(insert(image('7', '2026-11-22T10:00:00.000Z')));
    expect(event.owner).toBe('alice');

    const sent: SendMessageBatchCommand['input'][] = [];
    const client = {
      send: async ({ input }: SendMessageBatchCommand) => {
        sent.push(input);
        return { Successful: [], Failed: [] };
      },
    } as unknown as SQSClient;
    const waiting = { ...event, attempts: 1, lastError: 'answered 500', dueAt: Date.now() };
    await sqsRetryQueue(client, 'https://sqs.test/1/retries').wait(waiting);
    // a message of an older version, with no owner: a tenant of its own
    await sqsRetryQueue(client, 'https://sqs.test/1/retries').wait({
      ...waiting,
      owner: undefined,
    });
    expect(sent.map(({ Entries }) => Entries?.[0]?.MessageGroupId)).toEqual([
      tenantOf('alice'),
      undefined,
    ]);
  });

  it('keeps one webhook-id per plant added, and a new one when the id is added again', () => {
    const first = plantAddedEvent(insert(image('7', '2026-11-22T10:00:00.000Z')));
    const again = plantAddedEvent(insert(image('7', '2026-11-22T10:00:00.000Z')));
    const recreated = plantAddedEvent(insert(image('7', '2026-11-23T08:00:00.000Z')));

    expect(first.webhookId).toBe(again.webhookId);
    expect(first.webhookId).toMatch(/^msg_[\w-]{32}$/);
    expect(recreated.webhookId).not.toBe(first.webhookId);
  });

  it.each(['MODIFY', 'REMOVE'])('is not made of a %s', (eventName) => {
    expect(() =>
      plantAddedEvent(insert(image('7', '2026-11-22T10:00:00.000Z'), eventName)),
    ).toThrow();
  });
});

describe('one delivery', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

  const receiver = async (answer: (headers: Record<string, unknown>) => number | 'hang') => {
    const seen: Record<string, unknown>[] = [];
    server = createServer((request, response) => {
      seen.push(request.headers);
      request.resume();
      const status = answer(request.headers);
      if (status !== 'hang') response.writeHead(status).end();
    });
    const port = await freePort();
    await new Promise<void>((done) => server?.listen(port, '127.0.0.1', () => done()));
    return { url: `http://127.0.0.1:${port}/hooks`, seen };
  };
  const secret = makeWebhookSecret();
  const target = (url: string, timeoutMs = 1000) => ({
    url,
    signingKeys: async () => signingKeys(secret) ?? [],
    timeoutMs,
  });

  it("failed, waits with the event's own fields, not what else its retry message held", async () => {
    const { url } = await receiver(() => 503);
    const waited: WaitingEvent[] = [];
    const attempt = attemptDelivery({
      ...quietTelemetry(),
      target: target(url),
      schedule: [60_000],
      retryQueue: { wait: async (event) => void waited.push(event), hideUntil: async () => {} },
      deadLetters: { put: async () => {} },
    });
    const event = { webhookId: 'msg_a', plantId: 1, owner: 'alice', body, requestTraceId: 't' };
    const fromAnotherVersion = { ...event, attempts: 0, lastError: '', dueAt: 0, extra: 'x' };

    await attempt(lambdaContext(), fromAnotherVersion, 0);

    expect(waited).toEqual([
      { ...event, attempts: 1, lastError: 'answered 503', dueAt: expect.any(Number) },
    ]);
  });

  it.each([200, 202, 204])(
    'is delivered on %i, signed as Standard Webhooks says',
    async (status) => {
      const { url, seen } = await receiver(() => status);

      const outcome = await deliverOnce(target(url), { webhookId: 'msg_a', body });

      expect(outcome).toEqual({ outcome: 'delivered', status });
      const headers = seen[0] as Record<string, string>;
      expect(headers['content-type']).toBe('application/json');
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    },
  );

  it.each([301, 400, 429, 500, 503])(
    'is refused on %i (a redirect is not followed)',
    async (status) => {
      const { url } = await receiver(() => status);
      expect(await deliverOnce(target(url), { webhookId: 'msg_a', body })).toEqual({
        outcome: 'refused',
        status,
      });
    },
  );

  it('is gone on 410: the receiver says never again', async () => {
    const { url } = await receiver(() => 410);
    expect(await deliverOnce(target(url), { webhookId: 'msg_a', body })).toEqual({
      outcome: 'gone',
      status: 410,
    });
  });

  it.each([429, 503])('reads the Retry-After of a %i, in seconds', async (status) => {
    server = createServer((request, response) => {
      request.resume();
      response.writeHead(status, { 'retry-after': '120' }).end();
    });
    const port = await freePort();
    await new Promise<void>((done) => server?.listen(port, '127.0.0.1', () => done()));
    expect(
      await deliverOnce(target(`http://127.0.0.1:${port}/`), { webhookId: 'msg_a', body }),
    ).toEqual({ outcome: 'refused', status, retryAfterMs: 120_000 });
  });

  it('is unreachable when nothing listens, and when the answer does not come in time', async () => {
    const closed = await deliverOnce(target(`http://127.0.0.1:${await freePort()}/`), {
      webhookId: 'msg_a',
      body,
    });
    expect(closed).toEqual({ outcome: 'unreachable', reason: 'ECONNREFUSED' });

    const { url } = await receiver(() => 'hang');
    const started = Date.now();
    const slow = await deliverOnce(target(url, 300), { webhookId: 'msg_a', body });
    expect(slow).toEqual({ outcome: 'unreachable', reason: 'no answer within 300 ms' });
    expect(Date.now() - started).toBeLessThan(2000);
    server?.closeAllConnections();
  });
});

describe('the webhook settings', () => {
  const load = (env: Record<string, string>) =>
    loadConfig(env, { webhook: webhookSettings }).webhook;
  const minimal = {
    WEBHOOK_URL: 'https://hooks.example.com/plants',
    WEBHOOK_SECRET: makeWebhookSecret(),
    WEBHOOK_DEAD_LETTER_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/dead',
    WEBHOOK_RETRY_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/retries',
  };
  const problems = (env: Record<string, string>) => {
    try {
      load(env);
    } catch (error) {
      return (error as Error).message;
    }
    return expect.fail('the settings were accepted');
  };

  it('read a minimal deployment, with defaults', () => {
    expect(load(minimal)).toMatchObject({
      url: 'https://hooks.example.com/plants',
      secret: { kind: 'value', keys: [expect.any(KeyObject)] },
      timeoutMs: 5000,
      schedule: [5, 300, 1800, 7200, 18_000, 36_000, 36_000].map((seconds) => seconds * 1000),
      retryQueueUrl: minimal.WEBHOOK_RETRY_QUEUE_URL,
      deadLetterQueueUrl: minimal.WEBHOOK_DEAD_LETTER_QUEUE_URL,
    });
  });

  it('take the secret from an SSM parameter instead', () => {
    const { WEBHOOK_SECRET: _, ...rest } = minimal;
    expect(
      load({ ...rest, WEBHOOK_SECRET_PARAMETER: '/plant-store/prod/webhook-secret' }).secret,
    ).toEqual({ kind: 'parameter', name: '/plant-store/prod/webhook-secret' });
  });

  it.each([
    [
      'an http receiver elsewhere than this machine',
      { WEBHOOK_URL: 'http://hooks.example.com/' },
      'WEBHOOK_URL',
    ],
    ['no receiver', { WEBHOOK_URL: '' }, 'WEBHOOK_URL'],
    // once a bare "Invalid URL" crash that named no variable
    ['a receiver that is no URL', { WEBHOOK_URL: 'hooks' }, 'WEBHOOK_URL must be an https URL'],
    ['a secret that is not whsec_', { WEBHOOK_SECRET: 'hunter2' }, 'WEBHOOK_SECRET'],
    ['two secret sources', { WEBHOOK_SECRET_PARAMETER: '/x' }, 'exactly one of WEBHOOK_SECRET'],
    [
      'no dead letters',
      { WEBHOOK_DEAD_LETTER_QUEUE_URL: '' },
      'WEBHOOK_DEAD_LETTER_QUEUE_URL is required',
    ],
    [
      'a dead-letter queue that is no URL',
      { WEBHOOK_DEAD_LETTER_QUEUE_URL: 'dead' },
      'WEBHOOK_DEAD_LETTER_QUEUE_URL must be an http(s) URL',
    ],
    ['no retry queue', { WEBHOOK_RETRY_QUEUE_URL: '' }, 'WEBHOOK_RETRY_QUEUE_URL is required'],
    ...['5x', '-1s', '5s,,5m', '5s,', '13h', '0s', '1.5s', '5 s', 'soon'].map((schedule) => [
      `the schedule ${JSON.stringify(schedule)}`,
      { WEBHOOK_RETRY_SCHEDULE: schedule },
      'WEBHOOK_RETRY_SCHEDULE must be waits separated by commas',
    ]),
  ] as [string, Record<string, string>, string][])('refuse %s, naming it', (_case, env, named) => {
    expect(problems({ ...minimal, ...env })).toContain(named);
  });

  it('accept an http receiver on this machine', () => {
    expect(load({ ...minimal, WEBHOOK_URL: 'http://127.0.0.1:4000/hooks' }).url).toBe(
      'http://127.0.0.1:4000/hooks',
    );
  });

  it('never echo the secret in a refusal', () => {
    const good = makeWebhookSecret();
    const message = problems({ ...minimal, WEBHOOK_SECRET: `${good} whsec_c2hvcnQ=` });
    expect(message).toContain('WEBHOOK_SECRET');
    expect(message).not.toContain(good.slice('whsec_'.length));
    expect(message).not.toContain('c2hvcnQ=');
  });
});

describe('the retry schedule', () => {
  it('reads waits in s, m and h, up to 12 hours a step', () => {
    expect(retrySchedule('2s, 4m,1h,12h')).toEqual([2000, 240_000, 3_600_000, 43_200_000]);
  });

  const refused = { outcome: 'refused', status: 500 } as const;
  const schedule = [2000, 4000];

  it('waits its next step after each failed attempt, then gives the event up', () => {
    expect(nextStep(1, refused, schedule)).toEqual({ kind: 'wait', waitMs: 2000 });
    expect(nextStep(2, refused, schedule)).toEqual({ kind: 'wait', waitMs: 4000 });
    expect(nextStep(3, refused, schedule)).toEqual({
      kind: 'deadLetter',
      reason: 'answered 500; the retry schedule is used up after 3 attempts',
    });
  });

  it('waits what a Retry-After asks when longer than the step, at most 12 hours', () => {
    const asking = (ms: number) => ({ ...refused, status: 429, retryAfterMs: ms });
    expect(nextStep(1, asking(60_000), schedule)).toEqual({ kind: 'wait', waitMs: 60_000 });
    expect(nextStep(1, asking(500), schedule)).toEqual({ kind: 'wait', waitMs: 2000 });
    expect(nextStep(1, asking(100 * 3_600_000), schedule)).toEqual({
      kind: 'wait',
      waitMs: 12 * 3_600_000,
    });
  });

  it('gives up at once on 410 Gone, saying so', () => {
    expect(nextStep(1, { outcome: 'gone', status: 410 }, schedule)).toEqual({
      kind: 'deadLetter',
      reason: 'answered 410 Gone: the receiver says the endpoint is gone',
    });
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(retryAfter('30', now)).toBe(30_000);
    expect(retryAfter('Mon, 23 Nov 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(retryAfter('Mon, 23 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfter('soon', now)).toBeUndefined();
    expect(retryAfter(null, now)).toBeUndefined();
  });
});

describe('a retry queue message', () => {
  it('is the waiting event it holds, or an error for anything else', () => {
    const event = {
      webhookId: 'msg_a',
      plantId: 1,
      body: '{"id":1,"name":"Fern"}',
      attempts: 2,
      lastError: 'answered 503',
      dueAt: 1_795_300_000_000,
    };
    expect(waitingEventOf(JSON.stringify(event))).toEqual(event);
    for (const other of ['{}', '{"webhookId":"msg_a","body":"{}"}', '[]', 'null']) {
      expect(() => waitingEventOf(other), other).toThrow('no waiting event');
    }
    expect(() => waitingEventOf('not json')).toThrow();
  });
});

describe('a partial batch response', () => {
  const fails = (ids: string[]) => async (id: string) => {
    if (ids.includes(id)) throw new Error(`no ${id}`);
  };

  it('reports exactly the items whose handling threw, and tells why', async () => {
    const told: string[] = [];
    const response = await handleEach(
      ['a', 'b', 'c'],
      fails(['b']),
      (id) => `seq-${id}`,
      (id, error) => told.push(`${id}: ${(error as Error).message}`),
    );
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'seq-b' }] });
    expect(told).toEqual(['b: no b']);
  });

  it('reports every item of a batch that failed whole, and one it cannot name as empty, which Lambda offers again with its whole batch', async () => {
    const response = await handleEach(
      ['a', 'b'],
      fails(['a', 'b']),
      (id) => (id === 'a' ? 'seq-a' : undefined),
      () => {},
    );
    expect(response.batchItemFailures).toEqual(
      expect.arrayContaining([{ itemIdentifier: 'seq-a' }, { itemIdentifier: '' }]),
    );
    expect(response.batchItemFailures).toHaveLength(2);
  });
});

describe("the functions' SQS client", () => {
  it('gives up a call that SQS never answers, well before a function’s timeout, instead of waiting for it', async () => {
    // accepts every connection and request, and never answers
    const hung = createServer(() => {});
    const { port, stop } = await listenLocally(hung);
    const endpoint = `http://127.0.0.1:${port}`;
    const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
    const client = sqsClient('us-east-1', { endpoint, credentials });
    try {
      const sent = sendMessages(client, `${endpoint}/000000000000/q`, [{ body: { id: 1 } }]);
      await expect(sent).rejects.toMatchObject({ name: 'TimeoutError' });
    } finally {
      client.destroy();
      await stop();
    }
  }, 15_000);
});
