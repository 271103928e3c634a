// The store of the callers' webhook endpoints against a real DynamoDB Local (in memory, started by
// the global setup), on a table made from infra/dynamodb.yml's WebhooksTable.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { laneOf } from '#lib/endpointDeliveries/store.ts';
import {
  type EndpointStore,
  MAX_ENDPOINTS_PER_CALLER,
  type StoredEndpoint,
  takesType,
} from '#lib/endpoints/store.ts';
import { freePort } from '../../infra/local/freePort.ts';
import {
  createDynamoEndpointStore,
  createWebhooksTestTable,
  localDocumentClient,
} from '../support/dynamodbTables.ts';
import { type FaultProxy, startFaultProxy } from '../support/faultProxy.ts';

const endpoint = inject('dynamodbEndpoint');

/** An endpoint as the route would hand it to create: the n-th of a caller, made at minute n. */
const newEndpoint = (n: number, more: Partial<StoredEndpoint> = {}) => ({
  id: `ep_${String(n).padStart(2, '0')}x`,
  url: `https://receiver.example/hooks/${n}`,
  events: ['plant.added' as const],
  disabled: false,
  createdAt: new Date(Date.UTC(2026, 10, 22, 10, n)).toISOString(),
  secrets: [{ secret: `whsec_first${n}` }],
  ...more,
});

describe('DynamoDB endpoint store', () => {
  let table: Awaited<ReturnType<typeof createWebhooksTestTable>>;
  let store: EndpointStore;
  let now: Date;

  beforeEach(async () => {
    table = await createWebhooksTestTable(endpoint);
    now = new Date('2026-11-22T12:00:00.000Z');
    store = createDynamoEndpointStore({
      client: localDocumentClient(endpoint),
      table: table.name,
      now: () => now,
    });
  });
  afterEach(() => table.drop());

  /** The items of alice's endpoints, and her count. */
  const endpointItems = async () =>
    (await table.items()).filter((item) => String(item.sk).startsWith('endpoint#'));
  const countOf = async (owner: string) =>
    (await table.items()).find((item) => item.pk === `caller#${owner}` && item.sk === 'count')
      ?.endpoints;

  it("creates an endpoint under its caller's key, and counts it", async () => {
    const made = newEndpoint(1, { description: 'orders' });

    const result = await store.create('alice', made);

    expect(result).toEqual({ outcome: 'created', endpoint: { ...made, owner: 'alice' } });
    const { id, ...attributes } = made;
    expect(await table.items()).toEqual(
      expect.arrayContaining([
        { pk: 'caller#alice', sk: `endpoint#${id}`, ...attributes },
        { pk: 'caller#alice', sk: 'count', endpoints: 1 },
      ]),
    );
    expect(await table.items()).toHaveLength(2);
  });

  it('stores nothing for what an endpoint leaves out (no description, no reason)', async () => {
    await store.create('alice', { ...newEndpoint(1), description: undefined });

    const [item] = await endpointItems();
    expect(item).not.toHaveProperty('description');
    expect(item).not.toHaveProperty('disabledReason');
    expect(item).not.toHaveProperty('owner');
  });

  it('takes every type for an endpoint stored or replaced without events, only its own for a list', async () => {
    const later = 'plant.archived'; // a type a later version adds: no stored item names it
    const every = newEndpoint(1, { events: undefined }); // as POST /webhooks stores one without
    const thatDay = newEndpoint(2, { events: ['plant.added', 'plant.updated', 'plant.deleted'] });
    const added = newEndpoint(3);
    for (const made of [every, thatDay, added]) await store.create('alice', made);
    const takes = async (type: string) => {
      const result = await store.list('alice');
      return result.outcome === 'list' ? result.endpoints.map((e) => takesType(e, type)) : [];
    };

    expect(await takes(later)).toEqual([true, false, false]);
    expect(await takes('plant.deleted')).toEqual([true, true, false]);
    const items = await endpointItems();
    expect(items.find(({ sk }) => sk === `endpoint#${every.id}`)).not.toHaveProperty('events');

    // a PUT without events makes it every type; one with a list, only those
    await store.replace('alice', every.id, {
      url: every.url,
      events: ['plant.added'],
      disabled: false,
    });
    await store.replace('alice', thatDay.id, { url: thatDay.url, disabled: false });
    expect(await takes(later)).toEqual([false, true, false]);
    expect(await takes('plant.deleted')).toEqual([false, true, false]);
  });

  it("lists a caller's endpoints oldest first, and only theirs", async () => {
    for (const n of [3, 1, 2]) await store.create('alice', newEndpoint(n));
    await store.create('bob', newEndpoint(0));

    const result = await store.list('alice');

    expect(result.outcome).toBe('list');
    if (result.outcome !== 'list') return;
    expect(result.endpoints.map((e) => e.createdAt)).toEqual(
      [1, 2, 3].map((n) => newEndpoint(n).createdAt),
    );
    expect(result.endpoints[0]).toEqual({ ...newEndpoint(1), owner: 'alice' });
    expect(await store.list('carol')).toEqual({ outcome: 'list', endpoints: [] });
  });

  it("gets a caller's endpoint; another caller's id, or an unknown one, is not found", async () => {
    await store.create('alice', newEndpoint(1));

    expect(await store.get('alice', newEndpoint(1).id)).toEqual({
      outcome: 'found',
      endpoint: { ...newEndpoint(1), owner: 'alice' },
    });
    expect(await store.get('bob', newEndpoint(1).id)).toEqual({
      outcome: 'notFound',
      reason: 'absent',
    });
    expect(await store.get('alice', 'ep_unknown')).toEqual({
      outcome: 'notFound',
      reason: 'absent',
    });
  });

  it('keeps the first slow attempt beside the first failure; quick answers at its url clear both, a PUT neither', async () => {
    const { id, url, events } = newEndpoint(1);
    await store.create('alice', newEndpoint(1));
    const health = async () => {
      const found = await store.get('alice', id);
      const { failingSince, slowSince, quickAnswers, standingUrl } =
        found.outcome === 'found' ? found.endpoint : {};
      return { failingSince, slowSince, quickAnswers, standingUrl };
    };

    await store.setHealth('alice', id, { kind: 'slow', since: '2026-11-20T00:00:00.000Z' });
    await store.setHealth('alice', id, { kind: 'slow', since: '2026-11-21T00:00:00.000Z' });
    await store.setHealth('alice', id, { kind: 'failing', since: '2026-11-22T00:00:00.000Z' });
    const slowSince = '2026-11-20T00:00:00.000Z';
    expect(await health()).toMatchObject({ failingSince: '2026-11-22T00:00:00.000Z', slowSince });
    // a slow success ends the failures, keeping the first slow attempt
    await store.setHealth('alice', id, { kind: 'slow', since: '2026-11-23T00:00:00.000Z' });
    expect(await health()).toMatchObject({ failingSince: undefined, slowSince });
    // quick answers count in a row, a failure starts them over; a failure then a quick answer
    const quick = { kind: 'quick', url, since: '2026-11-24T00:00:00.000Z' } as const;
    await store.setHealth('alice', id, quick);
    await store.setHealth('alice', id, { kind: 'failing', since: '2026-11-24T00:00:00.000Z' });
    expect(await health()).toMatchObject({ quickAnswers: undefined, slowSince });
    await store.setHealth('alice', id, quick);
    await store.setHealth('alice', id, quick);
    expect(await health()).toEqual({ slowSince, quickAnswers: 2 });

    // a PUT keeps its standing (it restarts the quick answers); a new url is on probation
    await store.replace('alice', id, { url, events, disabled: false });
    expect(await health()).toEqual({ slowSince, standingUrl: url });
    const next = 'https://receiver.example/next';
    await store.replace('alice', id, { url: next, events, disabled: false });
    expect(await health()).toEqual({ slowSince, standingUrl: url });
    // a quick answer of its old url, in flight across the PUT, counts for nothing
    await store.setHealth('alice', id, quick);
    expect(await store.setHealth('alice', id, { kind: 'healthy', url })).toBe(false);
    expect(await health()).toEqual({ slowSince, standingUrl: url });
    // off the slow lane only with two quick answers in a row stored before the third's
    const nextQuick = { ...quick, url: next };
    expect(await store.setHealth('alice', id, { kind: 'healthy', url: next })).toBe(false);
    await store.setHealth('alice', id, nextQuick);
    await store.setHealth('alice', id, nextQuick);
    expect(await store.setHealth('alice', id, { kind: 'healthy', url: next })).toBe(true);
    expect(await health()).toEqual({ standingUrl: next });
  });

  it('puts a PUT of a new url on probation: the url its standing was earned at stays', async () => {
    const { id, url, events } = newEndpoint(1);
    await store.create('alice', newEndpoint(1));
    const next = 'https://receiver.example/next';
    const replaced = await store.replace('alice', id, { url: next, events, disabled: false });
    expect(replaced).toMatchObject({ endpoint: { url: next, standingUrl: url } });
    if (replaced.outcome !== 'replaced') return expect.fail('not replaced');
    expect(laneOf(replaced.endpoint)).toEqual({ lane: 'slow' });
  });

  it('keeps the first failure, clears it at a success, and disables only while it still counts', async () => {
    const { id } = newEndpoint(1);
    await store.create('alice', newEndpoint(1));
    const failingSince = async () => {
      const found = await store.get('alice', id);
      return found.outcome === 'found' ? found.endpoint.failingSince : 'gone';
    };

    await store.setHealth('alice', id, { kind: 'failing', since: '2026-11-20T00:00:00.000Z' });
    await store.setHealth('alice', id, { kind: 'failing', since: '2026-11-21T00:00:00.000Z' });
    expect(await failingSince()).toBe('2026-11-20T00:00:00.000Z');

    // a PUT keeps the failures' clock: a caller cannot reset it
    await store.replace('alice', id, {
      url: 'https://hooks.example.com/a',
      events: ['plant.added'],
      disabled: false,
    });
    expect(await failingSince()).toBe('2026-11-20T00:00:00.000Z');
    // an answer meanwhile made its failures count afresh: the older ones disable nothing
    await store.setHealth('alice', id, { kind: 'slow', since: '2026-11-21T00:00:00.000Z' });
    await store.setHealth('alice', id, { kind: 'failing', since: '2026-11-21T12:00:00.000Z' });
    const stale = await store.setHealth('alice', id, {
      kind: 'disabled',
      reason: 'every attempt failed',
      url: 'https://hooks.example.com/a',
      since: '2026-11-25T00:00:00.000Z',
      failingSince: '2026-11-20T00:00:00.000Z',
    });
    expect(stale).toBe(false);
    expect(
      (await store.get('alice', id)).outcome === 'found' && (await store.get('alice', id)),
    ).toMatchObject({ endpoint: { disabled: false } });

    const counted = await store.setHealth('alice', id, {
      kind: 'disabled',
      reason: 'every attempt failed',
      url: 'https://hooks.example.com/a',
      since: '2026-11-25T00:00:00.000Z',
      failingSince: '2026-11-21T12:00:00.000Z',
    });
    expect(counted).toBe(true);
    expect(await store.get('alice', id)).toMatchObject({
      endpoint: { disabled: true, disabledReason: 'every attempt failed' },
    });
    expect(await failingSince()).toBeUndefined();

    // any answer ends the failures
    await store.setHealth('alice', id, { kind: 'failing', since: '2026-11-23T00:00:00.000Z' });
    const answered = {
      kind: 'quick',
      url: 'https://hooks.example.com/a',
      since: '2026-11-23T01:00:00.000Z',
    } as const;
    await store.setHealth('alice', id, answered);
    expect(await failingSince()).toBeUndefined();

    // a deleted endpoint is not brought back as a stub
    await store.delete('alice', id);
    expect(
      await store.setHealth('alice', id, { kind: 'failing', since: '2026-11-24T00:00:00.000Z' }),
    ).toBe(false);
    expect(await endpointItems()).toEqual([]);
  });

  it('disables only while its url is the one that answered: a PUT of a new url meanwhile wins', async () => {
    const { id, url, events } = newEndpoint(1);
    await store.create('alice', newEndpoint(1));
    const since = '2026-11-25T00:00:00.000Z';
    const gone = {
      kind: 'disabled' as const,
      reason: 'its receiver answered 410 Gone',
      url,
      since,
    };

    await store.replace('alice', id, {
      url: 'https://receiver.example/new',
      events,
      disabled: false,
    });
    expect(await store.setHealth('alice', id, gone)).toBe(false);
    expect(await store.get('alice', id)).toMatchObject({ endpoint: { disabled: false } });

    expect(
      await store.setHealth('alice', id, { ...gone, url: 'https://receiver.example/new' }),
    ).toBe(true);
    // a ping to it, or a PUT that enables it again, waits on the slow lane until it answers quickly
    expect(await store.get('alice', id)).toMatchObject({
      endpoint: { disabled: true, disabledReason: gone.reason, slowSince: since },
    });
  });

  it('replaces what the caller sets, a description left out removed, and keeps the rest', async () => {
    await store.create('alice', newEndpoint(1, { description: 'orders' }));

    const result = await store.replace('alice', newEndpoint(1).id, {
      url: 'https://elsewhere.example/in',
      events: ['plant.deleted', 'plant.updated'],
      disabled: true,
    });

    const replaced = {
      ...newEndpoint(1),
      owner: 'alice',
      url: 'https://elsewhere.example/in',
      events: ['plant.deleted', 'plant.updated'],
      disabled: true,
      // its standing was earned at its first url: the new one is on probation
      standingUrl: newEndpoint(1).url,
    };
    expect(result).toEqual({ outcome: 'replaced', endpoint: replaced });
    expect(await store.get('alice', newEndpoint(1).id)).toEqual({
      outcome: 'found',
      endpoint: replaced,
    });
  });

  it('clears why the service disabled an endpoint when a replace enables it, and only then', async () => {
    const disabled = { disabled: true, disabledReason: 'the receiver answered 410 Gone' };
    await store.create('alice', newEndpoint(1, disabled));
    const content = { url: newEndpoint(1).url, events: newEndpoint(1).events };

    const stillDisabled = await store.replace('alice', newEndpoint(1).id, {
      ...content,
      disabled: true,
    });
    const enabled = await store.replace('alice', newEndpoint(1).id, {
      ...content,
      description: 'back',
      disabled: false,
    });

    expect(stillDisabled).toMatchObject({ outcome: 'replaced', endpoint: disabled });
    expect(enabled).toEqual({
      outcome: 'replaced',
      endpoint: {
        ...newEndpoint(1),
        owner: 'alice',
        description: 'back',
        disabled: false,
        standingUrl: newEndpoint(1).url,
      },
    });
    const [item] = await endpointItems();
    expect(item).not.toHaveProperty('disabledReason');
  });

  it("replaces no endpoint of another caller's, nor one that is not there, and creates none", async () => {
    await store.create('alice', newEndpoint(1));
    const before = await table.items();
    const content = { url: 'https://bob.example/', events: [], disabled: false };

    expect(await store.replace('bob', newEndpoint(1).id, content)).toEqual({
      outcome: 'notFound',
      reason: 'absent',
    });
    expect(await store.replace('alice', 'ep_unknown', content)).toEqual({
      outcome: 'notFound',
      reason: 'absent',
    });
    expect(await table.items()).toEqual(before);
  });

  it('rotates a secret: the new one first, the one it replaces kept until then, no older one', async () => {
    await store.create('alice', newEndpoint(1));
    const { id } = newEndpoint(1);

    const first = await store.rotateSecret('alice', id, {
      secret: 'whsec_second',
      keepOldUntil: '2026-11-23T12:00:00.000Z',
    });
    expect(first).toEqual({
      outcome: 'rotated',
      endpoint: {
        ...newEndpoint(1),
        owner: 'alice',
        secrets: [
          { secret: 'whsec_second' },
          { secret: 'whsec_first1', expiresAt: '2026-11-23T12:00:00.000Z' },
        ],
      },
    });

    const second = await store.rotateSecret('alice', id, {
      secret: 'whsec_third',
      keepOldUntil: '2026-11-23T13:00:00.000Z',
    });
    const third = await store.rotateSecret('alice', id, {
      secret: 'whsec_fourth',
      keepOldUntil: '2026-11-24T12:30:00.000Z',
    });

    // two signatures at most (docs/api.md, "A caller's endpoint"): a second rotation drops the secret the first replaced
    expect(second.outcome === 'rotated' && second.endpoint.secrets).toEqual([
      { secret: 'whsec_third' },
      { secret: 'whsec_second', expiresAt: '2026-11-23T13:00:00.000Z' },
    ]);
    const stored = [
      { secret: 'whsec_fourth' },
      { secret: 'whsec_third', expiresAt: '2026-11-24T12:30:00.000Z' },
    ];
    expect(third.outcome === 'rotated' && third.endpoint.secrets).toEqual(stored);
    expect(await store.get('alice', id)).toMatchObject({ endpoint: { secrets: stored } });
  });

  it('loses no rotation to a concurrent one: each replaces the secret current when it wrote', async () => {
    await store.create('alice', newEndpoint(1));
    const keepOldUntil = '2026-11-23T12:00:00.000Z';
    const secrets = ['whsec_a', 'whsec_b', 'whsec_c'];

    const results = await Promise.all(
      secrets.map((secret) =>
        store.rotateSecret('alice', newEndpoint(1).id, { secret, keepOldUntil }),
      ),
    );

    expect(results.map((r) => r.outcome)).toEqual(['rotated', 'rotated', 'rotated']);
    const found = await store.get('alice', newEndpoint(1).id);
    const stored = found.outcome === 'found' ? found.endpoint.secrets : [];
    // the last one written, beside the one it replaced: another of the three, never the first
    // secret (which only a rotation that read a list since overwritten would keep)
    const [current, previous] = stored;
    expect(stored).toHaveLength(2);
    expect(secrets).toContain(current?.secret);
    expect(secrets).toContain(previous?.secret);
    expect(previous?.secret).not.toBe(current?.secret);
  });

  it("rotates no secret of another caller's endpoint, nor of one that is not there", async () => {
    await store.create('alice', newEndpoint(1));
    const before = await table.items();
    const rotation = { secret: 'whsec_bob', keepOldUntil: '2026-11-23T12:00:00.000Z' };

    expect(await store.rotateSecret('bob', newEndpoint(1).id, rotation)).toEqual({
      outcome: 'notFound',
      reason: 'absent',
    });
    expect(await store.rotateSecret('alice', 'ep_unknown', rotation)).toEqual({
      outcome: 'notFound',
      reason: 'absent',
    });
    expect(await table.items()).toEqual(before);
  });

  it('deletes an endpoint, which is then not found, and counts it no more', async () => {
    await store.create('alice', newEndpoint(1));
    await store.create('alice', newEndpoint(2));

    expect(await store.delete('alice', newEndpoint(1).id)).toEqual({ outcome: 'deleted' });

    expect(await store.get('alice', newEndpoint(1).id)).toMatchObject({ outcome: 'notFound' });
    expect(await store.delete('alice', newEndpoint(1).id)).toEqual({
      outcome: 'notFound',
      reason: 'absent',
    });
    expect(await countOf('alice')).toBe(1);
  });

  it("deletes no endpoint of another caller's, and leaves both counts as they were", async () => {
    await store.create('alice', newEndpoint(1));
    const before = await table.items();

    expect(await store.delete('bob', newEndpoint(1).id)).toEqual({
      outcome: 'notFound',
      reason: 'absent',
    });
    expect(await table.items()).toEqual(before);
  });

  it(`refuses a caller's endpoint beyond ${MAX_ENDPOINTS_PER_CALLER}, writing nothing, until one is deleted`, async () => {
    for (let n = 1; n <= MAX_ENDPOINTS_PER_CALLER; n += 1) {
      expect((await store.create('alice', newEndpoint(n))).outcome).toBe('created');
    }
    const before = await table.items();

    expect(await store.create('alice', newEndpoint(11))).toEqual({ outcome: 'limitReached' });
    expect(await table.items()).toEqual(before);
    // another caller has a limit of their own
    expect((await store.create('bob', newEndpoint(11))).outcome).toBe('created');

    await store.delete('alice', newEndpoint(4).id);
    expect((await store.create('alice', newEndpoint(11))).outcome).toBe('created');
    expect(await countOf('alice')).toBe(MAX_ENDPOINTS_PER_CALLER);
  });

  it(`stores exactly ${MAX_ENDPOINTS_PER_CALLER} of 12 concurrent creates`, async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, n) => store.create('alice', newEndpoint(n + 1))),
    );

    const outcomes = results.map((r) => r.outcome);
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(MAX_ENDPOINTS_PER_CALLER);
    expect(outcomes.filter((o) => o === 'limitReached')).toHaveLength(2);
    expect(await endpointItems()).toHaveLength(MAX_ENDPOINTS_PER_CALLER);
    expect(await countOf('alice')).toBe(MAX_ENDPOINTS_PER_CALLER);
  });

  it('reports every operation as unavailable when DynamoDB cannot be reached', async () => {
    const unreachable = createDynamoEndpointStore({
      client: localDocumentClient(`http://127.0.0.1:${await freePort()}`, {
        maxAttempts: 2,
        requestTimeoutMs: 500,
      }),
      table: table.name,
    });
    const { id } = newEndpoint(1);
    const content = { url: newEndpoint(1).url, events: [], disabled: false };

    const outcomes = await Promise.all([
      unreachable.create('alice', newEndpoint(1)),
      unreachable.list('alice'),
      unreachable.get('alice', id),
      unreachable.replace('alice', id, content),
      unreachable.rotateSecret('alice', id, { secret: 'whsec_x', keepOldUntil: '2030-01-01' }),
      unreachable.delete('alice', id),
    ]);

    expect(outcomes.map((r) => r.outcome)).toEqual(Array(6).fill('unavailable'));
  });

  it('throws (a fault of ours, not an outage) when the table does not exist', async () => {
    const misconfigured = createDynamoEndpointStore({
      client: localDocumentClient(endpoint),
      table: 'no-such-table',
    });

    await expect(misconfigured.create('alice', newEndpoint(1))).rejects.toThrow(
      /non-existent table|not found/i,
    );
  });
});

describe('DynamoDB endpoint store when DynamoDB cancels or loses a transaction', () => {
  let proxy: FaultProxy;
  let table: Awaited<ReturnType<typeof createWebhooksTestTable>>;
  let store: EndpointStore;

  beforeAll(async () => {
    proxy = await startFaultProxy(endpoint);
  });
  afterAll(() => proxy.stop());
  beforeEach(async () => {
    table = await createWebhooksTestTable(endpoint);
    store = createDynamoEndpointStore({
      client: localDocumentClient(proxy.endpoint, { maxAttempts: 2, requestTimeoutMs: 2000 }),
      table: table.name,
    });
    proxy.reset();
  });
  afterEach(() => table.drop());

  const transactions = () => proxy.attempts().filter((a) => a.operation === 'TransactWriteItems');
  const endpointCount = async () =>
    (await table.items()).find((item) => item.sk === 'count')?.endpoints;

  it('sends a create again that another transaction cancelled, and stores it once', async () => {
    proxy.script(['transactionConflict', 'transactionConflict']);

    expect((await store.create('alice', newEndpoint(1))).outcome).toBe('created');

    expect(transactions()).toHaveLength(3);
    expect(await table.items()).toHaveLength(2);
    expect(await endpointCount()).toBe(1);
  });

  it('sends a delete again that another transaction cancelled, and counts it once', async () => {
    await store.create('alice', newEndpoint(1));
    await store.create('alice', newEndpoint(2));
    proxy.script(['transactionConflict']);

    expect(await store.delete('alice', newEndpoint(1).id)).toEqual({ outcome: 'deleted' });

    expect(await endpointCount()).toBe(1);
  });

  it('gives up on a create that conflicts every time, as unavailable, and writes nothing', async () => {
    proxy.script([], 'transactionConflict');

    expect((await store.create('alice', newEndpoint(1))).outcome).toBe('unavailable');

    expect(transactions().length).toBeGreaterThan(1);
    expect(await table.items()).toEqual([]);
  });

  it('creates once when the answer to a written create is lost and the SDK sends it again', async () => {
    proxy.script(['dropReply']);

    const result = await store.create('alice', newEndpoint(1));

    expect(transactions().map((a) => a.forwarded)).toEqual([true, true]);
    expect(result.outcome).toBe('created');
    expect(await endpointCount()).toBe(1);
  });
});
