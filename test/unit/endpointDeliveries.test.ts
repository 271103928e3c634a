// The two functions that deliver plant events to callers' own webhook endpoints, on their own: the
// stream's records made into one delivery per endpoint (queueEndpointEvents), and each attempt of a
// delivery from the queue (deliverToEndpoint), POSTed to a real receiver on this machine. The
// endpoints, attempts and queue are in memory; time is a fixed date, moved only where a test says.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent, SQSEvent, StreamRecord } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { deliverToEndpointHandler } from '#lib/endpointDeliveries/deliverToEndpoint.ts';
import { queueEndpointEventsHandler } from '#lib/endpointDeliveries/queueEndpointEvents.ts';
import type {
  Attempt,
  AttemptStore,
  DeliveryQueue,
  EndpointDelivery,
  SentEvent,
} from '#lib/endpointDeliveries/store.ts';
import type { StoredEndpoint } from '#lib/endpoints/store.ts';
import { EVENT_TYPES } from '#lib/plants/eventTypes.ts';
import type { EndpointPolicy } from '#lib/ssrf/safePost.ts';
import type { StreamDeadLetter } from '#lib/webhooks/batchResponse.ts';
import type { RetryQueue } from '#lib/webhooks/retries.ts';
import { retryQueueEvent } from '../../infra/events/webhooks.mjs';
import { lambdaContext } from '../support/events.ts';
import { FakeEndpointStore } from '../support/fakeEndpointStore.ts';
import { recordTelemetry } from '../support/telemetry.ts';
import { makeWebhookSecret } from '../support/webhookSecrets.ts';

const NOW = Date.parse('2026-11-23T10:00:00.000Z');
const DAY_MS = 24 * 3600 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

beforeEach(() => {
  // only Date: the receiver's sockets and the attempt's timeout run on real timers
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

/** What the receiver answers next, and how long the clock moves while it answers. */
interface Answer {
  status: number;
  headers?: Record<string, string>;
  takesMs?: number;
}

const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let answer: Answer = { status: 204 };
let server: Server;
let receiverUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      vi.advanceTimersByTime(answer.takesMs ?? 0);
      response.writeHead(answer.status, answer.headers).end();
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise<void>((closed) => server.close(() => closed())));
afterEach(() => {
  received.length = 0;
  answer = { status: 204 };
});

const secret = makeWebhookSecret();

const endpoint = (id: string, more: Partial<StoredEndpoint> = {}): StoredEndpoint => ({
  id,
  owner: 'alice',
  url: receiverUrl,
  events: [...EVENT_TYPES],
  disabled: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  secrets: [{ secret }],
  ...more,
});

const storeWith = (...endpoints: StoredEndpoint[]) => {
  const store = new FakeEndpointStore();
  for (const one of endpoints) store.endpoints.set(one.id, one);
  return store;
};

/** The queue of deliveries: what was sent to it, and the early messages it was told to hold. */
const memoryQueue = () => {
  const sent: EndpointDelivery[] = [];
  const held: { receiptHandle: string; dueAt: number }[] = [];
  const queue: DeliveryQueue & Pick<RetryQueue, 'hideUntil'> = {
    send: async (deliveries) => {
      sent.push(...deliveries);
    },
    hideUntil: async (receiptHandle, dueAt) => {
      held.push({ receiptHandle, dueAt });
    },
  };
  return { queue, sent, held };
};

describe('queueEndpointEvents', () => {
  const CHANGED_AT = Date.parse('2026-11-23T09:59:58.000Z');
  const plant = {
    id: 7,
    name: 'Monstera',
    tag: 'indoor',
    createdAt: '2026-11-22T10:00:00.000Z',
    createdBy: 'alice',
    version: 1,
  };
  const { tag: _tag, ...untagged } = plant;
  const image = (item: object) => marshall(item) as StreamRecord['NewImage'];
  const streamRecord = (
    eventName: DynamoDBRecord['eventName'],
    images: Pick<StreamRecord, 'NewImage' | 'OldImage'>,
    sequenceNumber = '100',
  ): DynamoDBRecord => ({
    eventID: `event-${sequenceNumber}`,
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: {
      SequenceNumber: sequenceNumber,
      ApproximateCreationDateTime: CHANGED_AT / 1000,
      Keys: image({ id: plant.id }),
      ...images,
    },
  });

  const setup = (store: FakeEndpointStore) => {
    const telemetry = recordTelemetry();
    const { queue, sent } = memoryQueue();
    const setAside: StreamDeadLetter[] = [];
    const streamDeadLetters = {
      put: async (letter: StreamDeadLetter) => void setAside.push(letter),
    };
    const handler = queueEndpointEventsHandler({
      endpoints: store,
      queue,
      streamDeadLetters,
      ...telemetry,
    });
    const handle = (...records: DynamoDBRecord[]) =>
      handler({ Records: records } satisfies DynamoDBStreamEvent, lambdaContext());
    return { handle, sent, setAside, telemetry };
  };

  it.each([
    {
      eventName: 'INSERT' as const,
      images: { NewImage: image(plant) },
      type: 'plant.added' as const,
      data: { id: 7, name: 'Monstera', tag: 'indoor' },
    },
    {
      // the tag removed by the update: the event holds the plant as it is now
      eventName: 'MODIFY' as const,
      images: {
        OldImage: image(plant),
        NewImage: image({ ...untagged, name: 'Fern', version: 2 }),
      },
      type: 'plant.updated' as const,
      data: { id: 7, name: 'Fern' },
    },
    {
      eventName: 'REMOVE' as const,
      images: { OldImage: image(plant) },
      type: 'plant.deleted' as const,
      data: { id: 7 },
    },
  ])('makes a stream $eventName a $type delivery, in Standard Webhooks shape', async (change) => {
    // an endpoint of this type alone: the record may be an event of another type too
    const { handle, sent } = setup(storeWith(endpoint('ep_type', { events: [change.type] })));

    expect(await handle(streamRecord(change.eventName, change.images))).toEqual({
      batchItemFailures: [],
    });

    expect(sent).toEqual([
      {
        owner: 'alice',
        endpointId: 'ep_type',
        webhookId: expect.stringMatching(/^msg_[\w-]{32}$/),
        type: change.type,
        body: expect.any(String),
        plantId: 7,
        attempts: 0,
        dueAt: NOW,
      },
    ]);
    expect(JSON.parse(sent[0]?.body ?? '')).toStrictEqual({
      type: change.type,
      timestamp: iso(CHANGED_AT),
      data: change.data,
    });
  });

  it("hands the writing request's trace id from the new image to each delivery and the fan-out's line; a delete's is none", async () => {
    const { handle, sent, telemetry } = setup(storeWith(endpoint('ep_a'), endpoint('ep_b')));
    const written = { ...plant, version: 2, traceId: '1-6a1b2c3d-0123456789abcdef01234567' };

    await handle(streamRecord('MODIFY', { OldImage: image(plant), NewImage: image(written) }));
    await handle(streamRecord('REMOVE', { OldImage: image(written) }));

    expect(sent.map(({ type, requestTraceId }) => [type, requestTraceId])).toEqual([
      ['plant.updated', written.traceId],
      ['plant.updated', written.traceId],
      ['plant.deleted', undefined],
      ['plant.deleted', undefined],
    ]);
    const lines = telemetry.documents();
    expect(lines).toMatchObject([
      { message: 'endpoint deliveries queued', plantId: 7, request_trace_id: written.traceId },
      { message: 'endpoint deliveries queued', plantId: 7 },
    ]);
    expect(lines[1]).not.toHaveProperty('request_trace_id');
    // each line its own invocation's trace id beside the request's
    expect(lines[0]?.xray_trace_id).toMatch(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/);
    expect(lines[0]?.xray_trace_id).not.toBe(written.traceId);
  });

  it("queues only to the owner's enabled endpoints whose events hold the type", async () => {
    const { handle, sent } = setup(
      storeWith(
        endpoint('ep_all'),
        endpoint('ep_added', { events: ['plant.added'] }),
        endpoint('ep_deleted', { events: ['plant.deleted'] }),
        endpoint('ep_disabled', { disabled: true, disabledReason: 'its receiver answered 410' }),
        endpoint('ep_bob', { owner: 'bob' }),
      ),
    );

    await handle(streamRecord('INSERT', { NewImage: image(plant) }));

    expect(sent.map(({ endpointId }) => endpointId).sort()).toEqual(['ep_added', 'ep_all']);
  });

  it('queues every type to an endpoint stored without events, and keeps a stored list as it is', async () => {
    const { handle, sent } = setup(
      storeWith(
        // registered without events: every type, one added after it was stored too
        endpoint('ep_every', { events: undefined }),
        // an older version stored its every type of that day as a list: what that caller then had
        endpoint('ep_that_day', { events: ['plant.added'] }),
      ),
    );

    await handle(streamRecord('INSERT', { NewImage: image(plant) }));
    await handle(streamRecord('REMOVE', { OldImage: image(plant) }));

    expect(sent.map(({ endpointId, type }) => `${endpointId} ${type}`).sort()).toEqual([
      'ep_every plant.added',
      'ep_every plant.deleted',
      'ep_that_day plant.added',
    ]);
  });

  it('queues to an endpoint slow or failing on the slow lane, to the others on the main one', async () => {
    const { handle, sent } = setup(
      storeWith(
        endpoint('ep_quick'),
        endpoint('ep_slow', { slowSince: '2026-11-23T09:00:00.000Z' }),
        endpoint('ep_failing', { failingSince: '2026-11-23T09:00:00.000Z' }),
      ),
    );

    await handle(streamRecord('INSERT', { NewImage: image(plant) }));

    const lanes = Object.fromEntries(sent.map(({ endpointId, lane }) => [endpointId, lane]));
    expect(lanes).toEqual({ ep_quick: undefined, ep_slow: 'slow', ep_failing: 'slow' });
  });

  it('gives a record offered again the same webhook-id, and each update of the plant its own', async () => {
    const { handle, sent } = setup(storeWith(endpoint('ep_all')));
    const update = (version: number) =>
      streamRecord('MODIFY', {
        OldImage: image({ ...plant, version: version - 1 }),
        NewImage: image({ ...plant, version }),
      });

    await handle(update(2));
    await handle(update(2));
    await handle(update(3));

    const [first, again, next] = sent.map(({ webhookId }) => webhookId);
    expect(again).toBe(first);
    expect(next).not.toBe(first);
  });

  it('hands a record back when the endpoints cannot be read', async () => {
    const store = storeWith(endpoint('ep_all'));
    store.unavailable = true;
    const { handle, sent, telemetry } = setup(store);

    expect(await handle(streamRecord('INSERT', { NewImage: image(plant) }, '4711'))).toEqual({
      batchItemFailures: [{ itemIdentifier: '4711' }],
    });
    expect(sent).toEqual([]);
    expect(telemetry.metricNames()).toContain('WebhookEventsHandedBack');
  });

  it("sets aside whole a record that holds no plant's image, and does not hand it back", async () => {
    const { handle, sent, setAside, telemetry } = setup(storeWith(endpoint('ep_all')));

    // a REMOVE as a stream of new images only would carry it
    const record = streamRecord('REMOVE', { NewImage: image(plant) });
    expect(await handle(record)).toEqual({ batchItemFailures: [] });
    expect(sent).toEqual([]);
    expect(setAside).toEqual([
      {
        functionName: lambdaContext().functionName,
        reason: `stream record ${record.eventID} is no change of a plant`,
        failedAt: expect.any(String),
        record,
      },
    ]);
    expect(telemetry.metricNames()).toContain('StreamRecordsSetAside');
  });
});

describe('deliverToEndpoint', () => {
  const BODY = JSON.stringify({
    type: 'plant.added',
    timestamp: '2026-11-23T09:59:58.000Z',
    data: { id: 7, name: 'Monstera' },
  });

  const delivery = (more: Partial<EndpointDelivery> = {}): EndpointDelivery => ({
    owner: 'alice',
    endpointId: 'ep_1',
    webhookId: 'msg_plant7added',
    type: 'plant.added',
    body: BODY,
    attempts: 0,
    dueAt: NOW,
    ...more,
  });

  const setup = (
    store: FakeEndpointStore,
    schedule = [1000, 60_000],
    policy: EndpointPolicy = { allowPrivate: true },
  ) => {
    const telemetry = recordTelemetry();
    const { queue, sent, held } = memoryQueue();
    const recorded: { endpointId: string; attempt: Attempt; event: SentEvent | undefined }[] = [];
    const attempts: Pick<AttemptStore, 'record'> = {
      record: async (endpointId, attempt, event) => {
        recorded.push({ endpointId, attempt, event });
      },
    };
    const handler = deliverToEndpointHandler({
      endpoints: store,
      attempts,
      queue,
      schedule,
      timeoutMs: 2000,
      policy,
      retentionMs: 14 * DAY_MS,
      ...telemetry,
    });
    /** The message as SQS hands it over, sent to its queue at `sentAt`. */
    const deliver = (message: EndpointDelivery, sentAt = Date.now()) => {
      const event = retryQueueEvent('m1', message) as SQSEvent;
      for (const record of event.Records) record.attributes.SentTimestamp = String(sentAt);
      return handler(event, lambdaContext());
    };
    return { deliver, sent, held, recorded, telemetry, store };
  };

  const signatures = () => String(received[0]?.headers['webhook-signature']).split(' ');
  const verifies = (key: string) => {
    const [request] = received;
    if (!request) return expect.fail('the receiver was sent nothing');
    try {
      new Webhook(key).verify(request.body, request.headers as Record<string, string>);
      return true;
    } catch {
      return false;
    }
  };

  it('delivers on a 2xx, signed with the secret, and records the attempt with the event', async () => {
    answer = { status: 200, takesMs: 35 };
    const { deliver, sent, recorded, telemetry } = setup(storeWith(endpoint('ep_1')));

    expect(await deliver(delivery())).toEqual({ batchItemFailures: [] });

    expect(received).toHaveLength(1);
    expect(received[0]?.body).toBe(BODY);
    expect(received[0]?.headers['webhook-id']).toBe('msg_plant7added');
    expect(verifies(secret)).toBe(true);
    expect(verifies(makeWebhookSecret())).toBe(false);
    expect(recorded).toEqual([
      {
        endpointId: 'ep_1',
        attempt: {
          webhookId: 'msg_plant7added',
          type: 'plant.added',
          attempt: 1,
          at: iso(NOW),
          status: 200,
          error: undefined,
          durationMs: 35,
        },
        event: { type: 'plant.added', body: BODY },
      },
    ]);
    expect(sent).toEqual([]);
    expect(telemetry.metricNames()).toContain('EndpointEventsDelivered');
    // whose and how long past due: the slow lane's wait per caller, with no alarm to page anyone
    expect(telemetry.documents()).toMatchObject([
      { EndpointEventsDelivered: 1, callerSub: 'alice', lane: 'main', waitedMs: 0 },
    ]);
  });

  it('gives up a delivery that waited half its queue’s retention as an attempt, kept for a resend, before SQS could drop it', async () => {
    const { deliver, sent, recorded, telemetry } = setup(storeWith(endpoint('ep_1')));

    await deliver(delivery(), NOW - 7 * DAY_MS);

    expect(received).toEqual([]);
    expect(sent).toEqual([]);
    expect(recorded).toEqual([
      {
        endpointId: 'ep_1',
        attempt: {
          webhookId: 'msg_plant7added',
          type: 'plant.added',
          attempt: 1,
          at: iso(NOW),
          error: expect.stringMatching(/^exhausted: it waited 604800 s for an attempt/),
          durationMs: 0,
        },
        event: { type: 'plant.added', body: BODY },
      },
    ]);
    expect(telemetry.metricNames()).toContain('EndpointEventsExhausted');
    // a day less, and it is attempted
    await deliver(delivery(), NOW - 6 * DAY_MS);
    expect(received).toHaveLength(1);
  });

  it('checks the address rule at the attempt: a private address is a failed attempt, named to no one', async () => {
    const named = { ...endpoint('ep_1'), url: 'https://hooks.example.com/plants' };
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    const { deliver, sent, recorded } = setup(storeWith(named), [1000], {
      allowPrivate: false,
      resolve,
    });

    expect(await deliver(delivery())).toEqual({ batchItemFailures: [] });

    expect(received).toEqual([]);
    expect(recorded[0]?.attempt).toMatchObject({
      status: undefined,
      error: 'hooks.example.com has an address that is not public',
    });
    expect(sent).toMatchObject([{ attempts: 1, dueAt: NOW + 1000 }]);
  });

  it('keeps the event with the first attempt only', async () => {
    const { deliver, recorded } = setup(storeWith(endpoint('ep_1')));

    await deliver(delivery({ attempts: 2 }));

    expect(recorded).toEqual([
      expect.objectContaining({
        attempt: expect.objectContaining({ attempt: 3 }),
        event: undefined,
      }),
    ]);
  });

  it('signs with both secrets during a rotation, and never with an expired one', async () => {
    const [current, old] = [makeWebhookSecret(), makeWebhookSecret()];
    const rotating = (expiresAt: number) =>
      endpoint('ep_1', {
        secrets: [{ secret: current }, { secret: old, expiresAt: iso(expiresAt) }],
      });

    await setup(storeWith(rotating(NOW + DAY_MS - 1))).deliver(delivery());

    expect(signatures()).toEqual([expect.stringMatching(/^v1,/), expect.stringMatching(/^v1,/)]);
    expect(verifies(current)).toBe(true);
    expect(verifies(old)).toBe(true);

    received.length = 0;
    await setup(storeWith(rotating(NOW - 1))).deliver(delivery());

    expect(signatures()).toHaveLength(1);
    expect(verifies(current)).toBe(true);
    expect(verifies(old)).toBe(false);
  });

  it('after a 500, records it, marks the endpoint failing and queues the next attempt as scheduled', async () => {
    answer = { status: 500 };
    const { deliver, sent, recorded, store, telemetry } = setup(storeWith(endpoint('ep_1')));

    expect(await deliver(delivery())).toEqual({ batchItemFailures: [] });

    expect(recorded[0]?.attempt).toMatchObject({ attempt: 1, status: 500, error: undefined });
    expect(store.endpoints.get('ep_1')?.failingSince).toBe(iso(NOW));
    // the retry takes the slow lane
    expect(sent).toEqual([
      { ...delivery(), attempts: 1, dueAt: NOW + 1000, lastError: 'answered 500', lane: 'slow' },
    ]);
    expect(telemetry.metricNames()).toContain('EndpointAttemptsFailed');
  });

  it("writes the request's trace id and the plant on every attempt's line, and hands them to the next attempt", async () => {
    const requestTraceId = '1-6a1b2c3d-0123456789abcdef01234567';
    answer = { status: 500 };
    const { deliver, sent, telemetry } = setup(storeWith(endpoint('ep_1')));

    await deliver(delivery({ plantId: 7, requestTraceId }));
    const retry = sent[0];
    if (!retry) return expect.fail('the failed attempt queued no next one');
    answer = { status: 204 };
    await deliver(retry);

    expect(retry).toMatchObject({ plantId: 7, requestTraceId });
    expect(telemetry.documents()).toMatchObject([
      {
        EndpointAttemptsFailed: 1,
        endpointId: 'ep_1',
        plantId: 7,
        request_trace_id: requestTraceId,
      },
      {
        EndpointEventsDelivered: 1,
        endpointId: 'ep_1',
        plantId: 7,
        request_trace_id: requestTraceId,
      },
    ]);
  });

  it("waits a 503's Retry-After when longer than the schedule's step", async () => {
    answer = { status: 503, headers: { 'retry-after': '120' } };
    const { deliver, sent } = setup(storeWith(endpoint('ep_1')), [1000]);

    await deliver(delivery());

    expect(sent.map(({ dueAt }) => dueAt)).toEqual([NOW + 120_000]);
  });

  it('follows no redirect: a 301 is a failed attempt', async () => {
    answer = { status: 301, headers: { location: `${receiverUrl}/moved` } };
    const { deliver, sent, recorded } = setup(storeWith(endpoint('ep_1')));

    await deliver(delivery());

    expect(received).toHaveLength(1);
    expect(recorded[0]?.attempt).toMatchObject({ status: 301, error: 'redirect not followed' });
    expect(sent).toEqual([expect.objectContaining({ attempts: 1, lastError: 'answered 301' })]);
  });

  it('disables the endpoint at a 410, and queues nothing more', async () => {
    answer = { status: 410 };
    const { deliver, sent, recorded, store, telemetry } = setup(storeWith(endpoint('ep_1')));

    await deliver(delivery());

    expect(recorded[0]?.attempt.status).toBe(410);
    const disabled = store.endpoints.get('ep_1');
    expect(disabled?.disabled).toBe(true);
    expect(disabled?.disabledReason).toContain('410');
    expect(sent).toEqual([]);
    expect(telemetry.metricNames()).toContain('EndpointsDisabled');
  });

  it('disables nothing at a 410 when a PUT gave it a new url meanwhile: the event waits for it', async () => {
    answer = { status: 410 };
    const store = storeWith(endpoint('ep_1'));
    const read = store.get.bind(store);
    const moved = { url: 'https://hooks.example.com/new', events: ['plant.added' as const] };
    // the PUT lands between the attempt's read of the endpoint and the receiver's answer
    store.get = async (owner, id) => {
      const found = await read(owner, id);
      await store.replace(owner, id, { ...moved, disabled: false });
      return found;
    };
    const { deliver, sent, telemetry } = setup(store);

    await deliver(delivery());

    expect(received).toHaveLength(1);
    expect(store.endpoints.get('ep_1')).toMatchObject({ ...moved, disabled: false });
    const lastError = 'answered 410 Gone: the receiver says the endpoint is gone';
    expect(sent).toEqual([
      { ...delivery(), attempts: 1, dueAt: NOW + 1000, lastError, lane: 'slow' },
    ]);
    expect(telemetry.metricNames()).not.toContain('EndpointsDisabled');
  });

  it('disables an endpoint whose every attempt failed for 5 days', async () => {
    answer = { status: 500 };
    const failingSince = iso(NOW - 5 * DAY_MS - 60_000);
    const { deliver, sent, store, telemetry } = setup(
      storeWith(endpoint('ep_1', { failingSince })),
    );

    await deliver(delivery({ lane: 'slow' }));

    const disabled = store.endpoints.get('ep_1');
    expect(disabled?.disabled).toBe(true);
    expect(disabled?.disabledReason).toContain('5 days');
    expect(sent).toEqual([]);
    expect(telemetry.metricNames()).toContain('EndpointsDisabled');
  });

  it('keeps trying an endpoint failing for 4 days, failing since the first failure', async () => {
    answer = { status: 500 };
    const failingSince = iso(NOW - 4 * DAY_MS);
    const { deliver, sent, store } = setup(storeWith(endpoint('ep_1', { failingSince })));

    await deliver(delivery({ lane: 'slow' }));

    expect(store.endpoints.get('ep_1')).toMatchObject({ disabled: false, failingSince });
    expect(sent).toEqual([expect.objectContaining({ attempts: 1, dueAt: NOW + 1000 })]);
  });

  it('clears failingSince at a success', async () => {
    const { deliver, store } = setup(
      storeWith(endpoint('ep_1', { failingSince: iso(NOW - DAY_MS) })),
    );

    await deliver(delivery({ lane: 'slow' }));

    expect(store.endpoints.get('ep_1')).not.toHaveProperty('failingSince');
  });

  it('moves a delivery to an endpoint slow or failing since it was queued to the slow lane, unsent', async () => {
    for (const health of [{ failingSince: iso(NOW - 1000) }, { slowSince: iso(NOW - 1000) }]) {
      received.length = 0;
      const { deliver, sent, recorded } = setup(storeWith(endpoint('ep_1', health)));

      expect(await deliver(delivery())).toEqual({ batchItemFailures: [] });

      expect(received).toEqual([]);
      expect(recorded).toEqual([]);
      expect(sent).toEqual([{ ...delivery(), lane: 'slow' }]);
    }
  });

  it.each([
    ['failing', { failingSince: iso(NOW - 1000) }],
    ['slow', { slowSince: iso(NOW - 1000) }],
    ['on probation (a new url)', { standingUrl: 'https://old.example/hooks' }],
  ])(
    'moves a ping or a resend to a %s endpoint to the slow lane, where its deliveries wait',
    async (_, standing) => {
      const { deliver, sent } = setup(storeWith(endpoint('ep_1', standing)));

      await deliver(delivery({ type: 'webhook.ping' }));
      await deliver(delivery({ webhookId: 'msg_resent', attempts: 0 }));

      expect(received).toEqual([]);
      expect(sent.map(({ type, lane }) => [type, lane])).toEqual([
        ['webhook.ping', 'slow'],
        ['plant.added', 'slow'],
      ]);
    },
  );

  it('marks an endpoint slow at an attempt of half its timeout or more, and quick again at a shorter one', async () => {
    answer = { status: 200, takesMs: 1100 };
    const failingSince = iso(NOW - DAY_MS);
    const { deliver, store } = setup(storeWith(endpoint('ep_1', { failingSince })));
    await deliver(delivery({ lane: 'slow' }));
    // a slow success ends its failures: the 5 days count afresh
    expect(store.endpoints.get('ep_1')).not.toHaveProperty('failingSince');
    const slowSince = store.endpoints.get('ep_1')?.slowSince;
    expect(slowSince).toEqual(expect.any(String));

    // a second slow one keeps the first's time
    await deliver(delivery({ lane: 'slow' }));
    expect(store.endpoints.get('ep_1')?.slowSince).toBe(slowSince);

    // one quick answer cannot take it off the slow lane, nor two; a slow one starts them over
    answer = { status: 200 };
    for (const [takesMs, quickAnswers] of [
      [0, 1],
      [0, 2],
      [1100, undefined],
      [0, 1],
      [0, 2],
    ]) {
      answer = { status: 200, takesMs: takesMs ?? 0 };
      await deliver(delivery({ lane: 'slow' }));
      const { slowSince: since, quickAnswers: inARow } = store.endpoints.get('ep_1') ?? {};
      expect([since, inARow]).toEqual([slowSince, quickAnswers]);
    }
    // the third in a row does: standing earned at its url, on the main lane again
    answer = { status: 200 };
    await deliver(delivery({ lane: 'slow' }));
    const healthy = store.endpoints.get('ep_1');
    expect([healthy?.slowSince, healthy?.quickAnswers]).toEqual([undefined, undefined]);
    expect(healthy?.standingUrl).toBe(healthy?.url);
  }, 20_000);

  it('starts the quick answers over at a failure, and takes a new url off probation only at the third in a row', async () => {
    const standingUrl = 'https://old.example/hooks';
    const { deliver, store } = setup(storeWith(endpoint('ep_1', { standingUrl })));
    const inARow = () => store.endpoints.get('ep_1')?.quickAnswers;
    answer = { status: 200 };
    await deliver(delivery({ lane: 'slow' }));
    await deliver(delivery({ lane: 'slow' }));
    expect(inARow()).toBe(2);
    answer = { status: 500 };
    await deliver(delivery({ lane: 'slow' }));
    expect(inARow()).toBeUndefined();

    answer = { status: 200 };
    for (const count of [1, 2]) {
      await deliver(delivery({ lane: 'slow' }));
      expect([inARow(), store.endpoints.get('ep_1')?.standingUrl]).toEqual([count, standingUrl]);
    }
    await deliver(delivery({ lane: 'slow' }));
    const left = store.endpoints.get('ep_1');
    expect(left?.standingUrl).toBe(left?.url);
    expect([left?.slowSince, left?.failingSince, left?.quickAnswers]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('moves a ping to a disabled endpoint to the slow lane: disabling put it there', async () => {
    const disabled = endpoint('ep_1', { disabled: true, slowSince: iso(NOW - DAY_MS) });
    const { deliver, sent } = setup(storeWith(disabled));

    await deliver(delivery({ type: 'webhook.ping' }));

    expect(received).toEqual([]);
    expect(sent.map(({ type, lane }) => [type, lane])).toEqual([['webhook.ping', 'slow']]);
  });

  it.each([
    ['deleted', storeWith],
    ['disabled', () => storeWith(endpoint('ep_1', { disabled: true }))],
  ])('sends nothing to an endpoint %s meanwhile', async (_state, store) => {
    const { deliver, sent, recorded, telemetry } = setup(store());

    expect(await deliver(delivery())).toEqual({ batchItemFailures: [] });

    expect(received).toEqual([]);
    expect(recorded).toEqual([]);
    expect(sent).toEqual([]);
    expect(telemetry.metricNames()).toContain('EndpointEventsDropped');
  });

  it('sends a ping even to a disabled endpoint', async () => {
    const { deliver, recorded } = setup(storeWith(endpoint('ep_1', { disabled: true })));
    const ping = JSON.stringify({
      type: 'webhook.ping',
      timestamp: iso(NOW),
      data: { endpointId: 'ep_1' },
    });

    await deliver(delivery({ type: 'webhook.ping', webhookId: 'msg_ping', body: ping }));

    expect(received.map(({ body }) => body)).toEqual([ping]);
    expect(recorded[0]?.attempt).toMatchObject({ type: 'webhook.ping', status: 204 });
  });

  it('ends a delivery whose schedule is used up, queueing nothing', async () => {
    answer = { status: 500 };
    const { deliver, sent, recorded, telemetry } = setup(storeWith(endpoint('ep_1')), [1000]);

    await deliver(delivery({ attempts: 1 }));

    expect(recorded[0]?.attempt).toMatchObject({ attempt: 2, status: 500 });
    expect(sent).toEqual([]);
    expect(telemetry.metricNames()).toContain('EndpointEventsExhausted');
  });

  it('holds a message received before it is due, and sends nothing yet', async () => {
    const { deliver, held, recorded, telemetry } = setup(storeWith(endpoint('ep_1')));
    const dueAt = NOW + 60_000;

    expect(await deliver(delivery({ attempts: 1, dueAt }))).toEqual({
      batchItemFailures: [{ itemIdentifier: 'm1' }],
    });

    expect(held).toEqual([{ receiptHandle: 'receipt-m1', dueAt }]);
    expect(received).toEqual([]);
    expect(recorded).toEqual([]);
    // kept by the queue on purpose: no failure to tell of
    expect(telemetry.metricNames()).not.toContain('WebhookEventsHandedBack');
  });

  it('hands the message back when the endpoint cannot be read', async () => {
    const store = storeWith(endpoint('ep_1'));
    store.unavailable = true;
    const { deliver, recorded, telemetry } = setup(store);

    expect(await deliver(delivery())).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });

    expect(received).toEqual([]);
    expect(recorded).toEqual([]);
    expect(telemetry.metricNames()).toContain('WebhookEventsHandedBack');
  });
});
