// The store of delivery attempts and sent events against a real DynamoDB Local (in memory, started
// by the global setup), on a table made from infra/dynamodb.yml's WebhooksTable.
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Attempt, AttemptStore } from '#lib/endpointDeliveries/store.ts';
import {
  createDynamoAttemptStore,
  createWebhooksTestTable,
  localDocumentClient,
} from '../support/dynamodbTables.ts';

const endpoint = inject('dynamodbEndpoint');
const DAY_MS = 24 * 3600 * 1000;
const ENDPOINT = 'ep_2Un7Klsvqo_UuPRYKPuHxM';

describe('DynamoDB attempt store', () => {
  let table: Awaited<ReturnType<typeof createWebhooksTestTable>>;
  let store: AttemptStore;
  let now: Date;

  beforeEach(async () => {
    table = await createWebhooksTestTable(endpoint);
    now = new Date('2026-11-22T12:00:00.000Z');
    store = createDynamoAttemptStore({
      client: localDocumentClient(endpoint),
      table: table.name,
      now: () => now,
    });
  });
  afterEach(() => table.drop());

  /** The n-th attempt, made n minutes before now (or `ageMs` before it). */
  const attemptOf = (n: number, more: Partial<Attempt> = {}, ageMs = n * 60_000): Attempt => ({
    webhookId: `msg_${n}`,
    type: 'plant.added',
    attempt: 1,
    at: new Date(now.getTime() - ageMs).toISOString(),
    status: 200,
    durationMs: 40 + n,
    ...more,
  });
  const event = { type: 'plant.added' as const, body: '{"type":"plant.added"}' };

  it('keeps an attempt and its event with expiresAt 14 days after the attempt', async () => {
    const attempt = attemptOf(1, { status: undefined, error: 'timed out after 10 s' });
    await store.record(ENDPOINT, attempt, event);

    const expiresAt = Math.ceil((Date.parse(attempt.at) + 14 * DAY_MS) / 1000);
    expect(await table.items()).toEqual(
      expect.arrayContaining([
        {
          pk: `endpoint#${ENDPOINT}`,
          sk: `attempt#${attempt.at}#msg_1#1`,
          webhookId: 'msg_1',
          type: 'plant.added',
          attempt: 1,
          at: attempt.at,
          error: 'timed out after 10 s',
          durationMs: 41,
          expiresAt,
        },
        { pk: `endpoint#${ENDPOINT}`, sk: 'event#msg_1', ...event, expiresAt },
      ]),
    );
    expect(await table.items()).toHaveLength(2);
  });

  it('keeps an event as first sent: a resend 13 days on neither renews it nor outlives its 14 days', async () => {
    await store.record(ENDPOINT, attemptOf(1, {}, 0), event);
    const firstSent = now.getTime();

    // the resend's first attempt, as deliverToEndpoint records it: with the event
    now = new Date(firstSent + 13 * DAY_MS);
    expect(await store.event(ENDPOINT, 'msg_1')).toEqual({ outcome: 'found', event });
    const resent = attemptOf(1, {}, 0);
    await store.record(ENDPOINT, resent, { ...event, body: '{"renewed":true}' });
    expect(await store.event(ENDPOINT, 'msg_1')).toEqual({ outcome: 'found', event });

    now = new Date(firstSent + 14 * DAY_MS + 1000);
    expect(await store.event(ENDPOINT, 'msg_1')).toEqual({ outcome: 'notFound' });
    // the resend's attempt is kept 14 days from its own time
    expect(await store.list(ENDPOINT, { limit: 10 })).toEqual({
      outcome: 'page',
      attempts: [resent],
    });
  });

  it("lists an endpoint's attempts newest first, a page at a time, and only its own", async () => {
    for (const n of [3, 1, 4, 2]) await store.record(ENDPOINT, attemptOf(n));
    await store.record('ep_other', attemptOf(0));

    const first = await store.list(ENDPOINT, { limit: 3 });
    expect(first).toMatchObject({ outcome: 'page', next: expect.any(String) });
    if (first.outcome !== 'page') return;
    expect(first.attempts).toEqual([1, 2, 3].map((n) => attemptOf(n)));

    const second = await store.list(ENDPOINT, { limit: 3, after: first.next });
    expect(second).toEqual({ outcome: 'page', attempts: [attemptOf(4)] });
  });

  it('lists no attempt older than 14 days, though TTL has not deleted it yet', async () => {
    await store.record(ENDPOINT, attemptOf(1));
    await store.record(ENDPOINT, attemptOf(2, {}, 14 * DAY_MS + 1000));

    expect(await store.list(ENDPOINT, { limit: 10 })).toEqual({
      outcome: 'page',
      attempts: [attemptOf(1)],
    });
  });

  it('ends the list at a position that has aged out since its page was answered', async () => {
    for (const n of [1, 2]) await store.record(ENDPOINT, attemptOf(n));
    const first = await store.list(ENDPOINT, { limit: 1 });
    if (first.outcome !== 'page') throw new Error('no page');

    now = new Date(now.getTime() + 14 * DAY_MS);
    expect(await store.list(ENDPOINT, { limit: 1, after: first.next })).toEqual({
      outcome: 'page',
      attempts: [],
    });
  });

  it('finds an event sent in the last 14 days; an unknown, expired or other endpoint one is not found', async () => {
    await store.record(ENDPOINT, attemptOf(1), event);

    expect(await store.event(ENDPOINT, 'msg_1')).toEqual({ outcome: 'found', event });
    expect(await store.event(ENDPOINT, 'msg_2')).toEqual({ outcome: 'notFound' });
    expect(await store.event('ep_other', 'msg_1')).toEqual({ outcome: 'notFound' });

    now = new Date(now.getTime() + 14 * DAY_MS);
    expect(await store.event(ENDPOINT, 'msg_1')).toEqual({ outcome: 'notFound' });
  });
});
