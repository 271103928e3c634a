// Pings and resends through their routes (real events, the real token verifier) against the
// endpoint and attempt stores on DynamoDB Local, with a clock of the test's: at most 10 per caller
// per minute (all its endpoints together), and a resend only within 14 days of the event's first send.
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { AttemptStore } from '#lib/endpointDeliveries/store.ts';
import type { HttpHandler } from '#lib/http/pipeline.ts';
import type { HttpResponse } from '#lib/http/types.ts';
import pingEndpoint from '#lib/routes/pingEndpoint.ts';
import resendEndpointEvent from '#lib/routes/resendEndpointEvent.ts';
import {
  createDynamoAttemptStore,
  createDynamoEndpointStore,
  createWebhooksTestTable,
  localDocumentClient,
} from '../support/dynamodbTables.ts';
import { httpApiEvent, invokeHandler } from '../support/events.ts';
import { FakeDeliveryQueue } from '../support/fakeEndpointStore.ts';
import { headerOf } from '../support/headers.ts';
import { quietTelemetry } from '../support/telemetry.ts';
import { makeKey, signToken, verifierTrusting } from '../support/tokens.ts';

const dynamodb = inject('dynamodbEndpoint');
const DAY_MS = 24 * 3600 * 1000;
const ID = 'ep_2Un7Klsvqo_UuPRYKPuHxM';
const key = await makeKey('ES256');
const verifyToken = await verifierTrusting(key);
const token = await signToken(key, { subject: 'alice' });
const event = { type: 'plant.added' as const, body: '{"type":"plant.added"}' };
// 15 s into a minute an hour on: DynamoDB Local's TTL deletes by its own clock what expired before
const MINUTE = Math.ceil(Date.now() / 60_000) * 60_000 + 3600_000;
const at = (ms: number) => new Date(MINUTE + ms);

describe('pings and resends on DynamoDB', () => {
  let table: Awaited<ReturnType<typeof createWebhooksTestTable>>;
  let attempts: AttemptStore;
  let queue: FakeDeliveryQueue;
  let now: Date;
  let ping: HttpHandler;
  let resend: HttpHandler;

  beforeEach(async () => {
    table = await createWebhooksTestTable(dynamodb);
    now = at(15_000);
    const target = { client: localDocumentClient(dynamodb), table: table.name, now: () => now };
    const endpointStore = createDynamoEndpointStore(target);
    await endpointStore.create('alice', {
      id: ID,
      url: 'https://hooks.example.com/plants',
      events: ['plant.added'],
      disabled: false,
      createdAt: now.toISOString(),
      secrets: [{ secret: 'whsec_first' }],
    });
    attempts = createDynamoAttemptStore(target);
    queue = new FakeDeliveryQueue();
    const dependencies = { endpointStore, attemptStore: attempts, queue, verifyToken };
    ping = pingEndpoint.with({ ...dependencies, ...quietTelemetry() });
    resend = resendEndpointEvent.with({ ...dependencies, ...quietTelemetry() });
    // the event's first send
    await attempts.record(ID, firstAttempt(), event);
  });
  afterEach(() => table.drop());

  /** The first attempt of msg_1 now, as deliverToEndpoint records it. */
  const firstAttempt = () => ({
    webhookId: 'msg_1',
    type: event.type,
    attempt: 1,
    at: now.toISOString(),
    status: 200,
    durationMs: 40,
  });

  const post = async (handler: HttpHandler, what: 'ping' | 'resend') => {
    const route =
      what === 'ping' ? '/webhooks/{id}/ping' : '/webhooks/{id}/attempts/{webhookId}/resend';
    const pathParameters = { id: ID, ...(what === 'resend' && { webhookId: 'msg_1' }) };
    const response = (await invokeHandler(
      handler,
      httpApiEvent({
        path: route.replace('{id}', ID).replace('{webhookId}', 'msg_1'),
        route: `POST ${route}`,
        pathParameters,
        headers: { authorization: `Bearer ${token}` },
      }),
    )) as HttpResponse;
    return { status: response.statusCode, retryAfter: headerOf(response, 'Retry-After') };
  };
  const pinged = () => post(ping, 'ping');
  const resent = () => post(resend, 'resend');

  it('answers the 11th ping or resend of a minute 429 until the minute ends, then sends again', async () => {
    for (let i = 0; i < 5; i++) {
      expect([(await pinged()).status, (await resent()).status]).toEqual([202, 202]);
    }

    expect(await pinged()).toEqual({ status: 429, retryAfter: '45' });
    now = at(59_500);
    expect(await resent()).toEqual({ status: 429, retryAfter: '1' });
    expect(queue.sent).toHaveLength(10);
    // the caller's count, in its own partition: an endpoint deleted and created anew buys none
    expect(await table.items()).toContainEqual({
      pk: 'caller#alice',
      sk: `sends#${at(0).toISOString()}`,
      sends: 10,
      expiresAt: (MINUTE + 60_000) / 1000,
    });

    now = at(60_000);
    expect((await resent()).status).toBe(202);
    expect((await pinged()).status).toBe(202);
  });

  it('counts no ping or resend the queue could not take (503): the minute keeps its 10', async () => {
    queue.failing = true;
    for (let i = 0; i < 6; i++) {
      expect([(await pinged()).status, (await resent()).status]).toEqual([503, 503]);
    }
    expect(await table.items()).toContainEqual(
      expect.objectContaining({ sk: `sends#${at(0).toISOString()}`, sends: 0 }),
    );

    queue.failing = false;
    for (let i = 0; i < 5; i++) {
      expect([(await pinged()).status, (await resent()).status]).toEqual([202, 202]);
    }
    expect((await pinged()).status).toBe(429);
  });

  it('counts exactly 10 of 15 concurrent pings', async () => {
    const statuses = (await Promise.all(Array.from({ length: 15 }, pinged))).map((r) => r.status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
  });

  it('resends 13 days after the first send without renewing it: after the 14th day, 404', async () => {
    const firstSent = now.getTime();
    now = new Date(firstSent + 13 * DAY_MS);
    expect((await resent()).status).toBe(202);
    await attempts.record(ID, firstAttempt(), event);

    now = new Date(firstSent + 14 * DAY_MS + 1000);
    expect((await resent()).status).toBe(404);
  });
});
