// The plant store's reads, updates and deletes against DynamoDB Local: ownership, versions, the
// index's pages, and the races a conditional write must win.

import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { CREATOR_TAG } from '#lib/plants/creatorTag.ts';
import type { ListPosition, PlantStore } from '#lib/plants/store.ts';
import { replacedBy } from '#lib/plants/store.ts';
import createPlant from '#lib/routes/createPlant.ts';
import getPlant from '#lib/routes/getPlant.ts';
import listPlants from '#lib/routes/listPlants.ts';
import patchPlant from '#lib/routes/patchPlant.ts';
import {
  createDynamoPlantStore,
  createTestTable,
  localDocumentClient,
} from '../support/dynamodbTables.ts';
import { httpApiEvent, invokeHandler } from '../support/events.ts';
import { quietTelemetry, recordTelemetry } from '../support/telemetry.ts';
import { makeKey, signToken, verifierTrusting } from '../support/tokens.ts';

const endpoint = inject('dynamodbEndpoint');

let table: Awaited<ReturnType<typeof createTestTable>>;
let store: PlantStore;
let clock: number;

beforeEach(async () => {
  table = await createTestTable(endpoint);
  clock = Date.parse('2026-11-22T10:00:00.000Z');
  // one second per create, unless a test holds the clock still
  const tick = () => {
    clock += 1000;
    return new Date(clock);
  };
  store = createDynamoPlantStore({
    client: localDocumentClient(endpoint),
    table: table.name,
    now: tick,
  });
});
afterEach(() => table.drop());

/** Every page of `owner`'s plants (with `tag`, if given), following `next`, as ids. */
const allPages = async (owner: string, limit: number, tag?: string) => {
  const pages: number[][] = [];
  let after: ListPosition | undefined;
  do {
    const result = await store.list(owner, { limit, after, tag });
    if (result.outcome !== 'page') throw new Error(`list answered ${result.outcome}`);
    pages.push(result.plants.map((plant) => plant.id));
    after = result.next;
  } while (after);
  return pages;
};

describe('get', () => {
  it("finds the caller's plant with its version, and nobody else's", async () => {
    await store.create({ id: 1, name: 'Fern', tag: 'shade' }, 'alice');

    expect(await store.get(1, 'alice')).toEqual({
      outcome: 'found',
      plant: expect.objectContaining({ id: 1, name: 'Fern', tag: 'shade', version: 1 }),
    });
    expect(await store.get(1, 'bob')).toEqual({ outcome: 'notFound', reason: 'notOwner' });
    expect(await store.get(2, 'alice')).toEqual({ outcome: 'notFound', reason: 'absent' });
  });

  it('counts a plant stored before versions existed as version 1', async () => {
    await table.put({
      id: 3,
      name: 'Old',
      createdAt: '2025-01-01T00:00:00.000Z',
      createdBy: 'alice',
    });

    const result = await store.get(3, 'alice');

    expect(result.outcome === 'found' && result.plant.version).toBe(1);
  });
});

describe('list', () => {
  it("pages through the caller's plants oldest first, never promising an empty page", async () => {
    for (const id of [5, 3, 9, 1, 7]) await store.create({ id, name: `P${id}` }, 'alice');
    await store.create({ id: 2, name: 'not hers' }, 'bob');

    expect(await allPages('alice', 2)).toEqual([[5, 3], [9, 1], [7]]);
    expect(await allPages('alice', 5)).toEqual([[5, 3, 9, 1, 7]]);
    expect(await allPages('bob', 5)).toEqual([[2]]);
    expect(await allPages('carol', 5)).toEqual([[]]);
  });

  it('answers name and tag, and tag only when the plant has one', async () => {
    await store.create({ id: 1, name: 'Fern', tag: 'shade' }, 'alice');
    await store.create({ id: 2, name: 'Ivy' }, 'alice');

    const result = await store.list('alice', { limit: 10 });

    expect(result.outcome === 'page' && result.plants).toEqual([
      expect.objectContaining({ id: 1, name: 'Fern', tag: 'shade' }),
      expect.not.objectContaining({ tag: expect.anything() }),
    ]);
  });

  // The index sorts by createdAt alone: plants created in one millisecond come in the index's own
  // order (not by id), the same on every walk, and paging through them loses and repeats none.
  it('pages plants created in the same millisecond in one stable order, without loss', async () => {
    await store.create({ id: 100, name: 'first' }, 'alice');
    const sameMoment = createDynamoPlantStore({
      client: localDocumentClient(endpoint),
      table: table.name,
      now: () => new Date('2026-11-22T10:00:01.500Z'),
    });
    for (const id of [40, -3, 12, 7, 0]) await sameMoment.create({ id, name: `P${id}` }, 'alice');
    await store.create({ id: 200, name: 'last' }, 'alice');

    const walk = (await allPages('alice', 2)).flat();

    expect(walk[0]).toBe(100);
    expect(walk.at(-1)).toBe(200);
    expect(walk.slice(1, -1).sort((a, b) => a - b)).toEqual([-3, 0, 7, 12, 40]);
    expect((await allPages('alice', 3)).flat()).toEqual(walk);
  });

  it('misses no plant and repeats none when plants are created between pages', async () => {
    for (let id = 1; id <= 5; id++) await store.create({ id, name: `P${id}` }, 'alice');
    const first = await store.list('alice', { limit: 3 });
    if (first.outcome !== 'page' || !first.next) throw new Error('expected a next page');

    for (let id = 6; id <= 8; id++) await store.create({ id, name: `P${id}` }, 'alice');
    const rest: number[] = [];
    let after: ListPosition | undefined = first.next;
    while (after) {
      const page = await store.list('alice', { limit: 3, after });
      if (page.outcome !== 'page') throw new Error('list failed');
      rest.push(...page.plants.map((plant) => plant.id));
      after = page.next;
    }

    expect([...first.plants.map((plant) => plant.id), ...rest]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('list by tag', () => {
  const tagged = async (owner: string, tag: string) => (await allPages(owner, 100, tag)).flat();

  it("pages through the caller's plants with exactly that tag, oldest first, and no others", async () => {
    for (const id of [5, 3, 9, 1, 7])
      await store.create({ id, name: `P${id}`, tag: 'indoor' }, 'alice');
    await store.create({ id: 20, name: 'untagged' }, 'alice');
    await store.create({ id: 21, name: 'case', tag: 'Indoor' }, 'alice');
    await store.create({ id: 22, name: 'prefix', tag: 'indoors' }, 'alice');
    await store.create({ id: 23, name: 'not hers', tag: 'indoor' }, 'bob');

    expect(await allPages('alice', 2, 'indoor')).toEqual([[5, 3], [9, 1], [7]]);
    expect(await allPages('alice', 5, 'indoor')).toEqual([[5, 3, 9, 1, 7]]);
    expect(await allPages('bob', 5, 'indoor')).toEqual([[23]]);
    expect(await allPages('alice', 5, 'cactus')).toEqual([[]]);
    expect(await allPages('alice', 5, '')).toEqual([[]]);
  });

  it('keeps untagged plants out of the index, and its key out of every answer', async () => {
    await store.create({ id: 1, name: 'Fern', tag: 'shade' }, 'alice');
    await store.create({ id: 2, name: 'Ivy' }, 'alice');

    const items = await table.items();
    expect(items.find((item) => item.id === 1)).toHaveProperty(CREATOR_TAG);
    expect(items.find((item) => item.id === 2)).not.toHaveProperty(CREATOR_TAG);
    const answers = [
      await store.list('alice', { limit: 10 }),
      await store.list('alice', { limit: 10, tag: 'shade' }),
      await store.get(1, 'alice'),
      await store.update(1, 'alice', { changes: replacedBy({ name: 'Fern', tag: 'shade' }) }),
    ];
    expect(JSON.stringify(answers)).not.toContain(CREATOR_TAG);
  });

  it('moves a re-tagged plant between the lists at once, and drops an untagged one from both', async () => {
    await store.create({ id: 1, name: 'Fern', tag: 'shade' }, 'alice');
    await store.create({ id: 2, name: 'Ivy', tag: 'shade' }, 'alice');

    await store.update(1, 'alice', { changes: replacedBy({ name: 'Fern', tag: 'sun' }) });
    expect(await tagged('alice', 'shade')).toEqual([2]);
    expect(await tagged('alice', 'sun')).toEqual([1]);

    await store.update(1, 'alice', { changes: replacedBy({ name: 'Fern' }) });
    expect(await tagged('alice', 'sun')).toEqual([]);
    expect(await tagged('alice', 'shade')).toEqual([2]);

    await store.update(1, 'alice', { changes: replacedBy({ name: 'Fern', tag: 'shade' }) });
    // the plant keeps its place: the list is by creation time
    expect(await tagged('alice', 'shade')).toEqual([1, 2]);
    // another caller cannot move it, nor see it
    await store.update(2, 'bob', { changes: replacedBy({ name: 'Ivy', tag: 'bob-tag' }) });
    expect(await tagged('bob', 'bob-tag')).toEqual([]);
    await store.delete(2, 'alice');
    expect(await tagged('alice', 'shade')).toEqual([1]);
  });

  it('misses no plant and repeats none when plants are created and re-tagged between pages', async () => {
    for (let id = 1; id <= 6; id++) await store.create({ id, name: `P${id}`, tag: 'a' }, 'alice');
    const first = await store.list('alice', { limit: 2, tag: 'a' });
    if (first.outcome !== 'page' || !first.next) throw new Error('expected a next page');

    // after the first page: a new plant with the tag, one re-tagged away (not yet listed), one
    // re-tagged in (created earlier than the page's end: it stays behind), one created untagged
    await store.create({ id: 7, name: 'P7', tag: 'a' }, 'alice');
    await store.update(4, 'alice', { changes: replacedBy({ name: 'P4', tag: 'b' }) });
    await store.create({ id: 8, name: 'P8' }, 'alice');
    await store.update(8, 'alice', { changes: replacedBy({ name: 'P8', tag: 'a' }) });
    const rest: number[] = [];
    let after: ListPosition | undefined = first.next;
    while (after) {
      const page = await store.list('alice', { limit: 2, after, tag: 'a' });
      if (page.outcome !== 'page') throw new Error('list failed');
      rest.push(...page.plants.map((plant) => plant.id));
      after = page.next;
    }

    expect([...first.plants.map((plant) => plant.id), ...rest]).toEqual([1, 2, 3, 5, 6, 7, 8]);
  });

  it('lists a plant stored before the tag index existed only once it is updated', async () => {
    // as an older version wrote it: a tag, but no index key
    await table.put({
      id: 3,
      name: 'Old',
      tag: 'indoor',
      createdAt: '2025-01-01T00:00:00.000Z',
      createdBy: 'alice',
    });
    expect(await tagged('alice', 'indoor')).toEqual([]);

    await store.update(3, 'alice', { changes: replacedBy({ name: 'Old', tag: 'indoor' }) });

    expect(await tagged('alice', 'indoor')).toEqual([3]);
  });
});

describe('GET /plants?tag= on DynamoDB Local', () => {
  let list: ReturnType<typeof listPlants.with>;
  let token: string;
  beforeEach(async () => {
    const key = await makeKey('ES256');
    list = listPlants.with({
      ...quietTelemetry(),
      plantStore: store,
      verifyToken: await verifierTrusting(key),
    });
    token = await signToken(key, { subject: 'alice' });
  });
  const get = async (query: string) => {
    const response = await invokeHandler(
      list,
      httpApiEvent({
        method: 'GET',
        path: '/plants',
        query,
        headers: { authorization: `Bearer ${token}`, host: 'plants.example.com' },
      }),
    );
    const link = response.headers?.Link ?? response.headers?.link;
    const next = link ? new URL(/^<([^>]+)>/.exec(String(link))?.[1] ?? '') : undefined;
    return { status: response.statusCode, body: JSON.parse(response.body) as unknown, next };
  };

  it('walks one tag by Link, and refuses its cursor for another list, or tampered, with a 400', async () => {
    for (let id = 1; id <= 5; id++) {
      await store.create({ id, name: `P${id}`, ...(id === 3 ? {} : { tag: 'a' }) }, 'alice');
    }
    await store.create({ id: 6, name: 'P6', tag: 'b' }, 'alice');
    const first = await get('limit=2&tag=a');
    const cursor = first.next?.searchParams.get('cursor') ?? '';
    expect(cursor).not.toBe('');
    expect(first.body).toEqual([
      { id: 1, name: 'P1', tag: 'a' },
      { id: 2, name: 'P2', tag: 'a' },
    ]);
    expect(first.next?.searchParams.get('tag')).toBe('a');
    const second = await get(first.next?.search.slice(1) ?? '');
    expect((second.body as { id: number }[]).map((plant) => plant.id)).toEqual([4, 5]);
    expect(second.next).toBeUndefined();

    const tampered = `${cursor.slice(0, 3)}${cursor[3] === 'A' ? 'B' : 'A'}${cursor.slice(4)}`;
    for (const query of [
      `limit=2&tag=b&cursor=${cursor}`,
      `limit=2&cursor=${cursor}`,
      `limit=2&tag=a&cursor=${tampered}`,
    ]) {
      const refused = await get(query);
      expect(refused.status, query).toBe(400);
      expect((refused.body as { message: string }).message).toMatch(/\bcursor\b/);
    }
    const unfiltered = await get('limit=2');
    const unfilteredCursor = unfiltered.next?.searchParams.get('cursor') ?? '';
    expect(unfilteredCursor).not.toBe('');
    expect((await get(`limit=2&tag=a&cursor=${unfilteredCursor}`)).status).toBe(400);
  });
});

describe("the writing request's trace id", () => {
  it('is kept on the item by every write, as its request line says it, and never answered', async () => {
    const key = await makeKey('ES256');
    const token = await signToken(key, { subject: 'alice' });
    const telemetry = recordTelemetry();
    const client = localDocumentClient(endpoint);
    // the store's own default: the trace id the route's pipeline holds (as deployed)
    const plantStore = createDynamoPlantStore({ client, table: table.name });
    const http = { ...telemetry, plantStore, verifyToken: await verifierTrusting(key) };
    // every route's pipeline holds its invocation's trace id for the store (lib/http/pipeline.ts)
    const [create, patch] = [createPlant.with(http), patchPlant.with(http)];
    const send = async (handler: typeof create, spec: Parameters<typeof httpApiEvent>[0]) => {
      const headers = { authorization: `Bearer ${token}`, host: 'plants.example.com' };
      const event = httpApiEvent({ ...spec, headers: { ...headers, ...spec.headers } });
      const { body } = await invokeHandler(handler, event);
      const line = telemetry.documents().at(-1);
      const [item] = await table.items();
      return { answer: JSON.parse(body) as unknown, lineTraceId: line?.xray_trace_id, item };
    };

    const created = await send(create, {
      body: '{"id":1,"name":"Fern"}',
      headers: { 'content-type': 'application/json' },
    });
    const patched = await send(patch, {
      method: 'PATCH',
      path: '/plants/1',
      route: 'PATCH /plants/{id}',
      pathParameters: { id: '1' },
      body: '{"name":"Monstera"}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });

    expect(created.lineTraceId).toMatch(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/);
    expect(created.item?.traceId).toBe(created.lineTraceId);
    expect(patched.item?.traceId).toBe(patched.lineTraceId);
    expect(patched.lineTraceId).not.toBe(created.lineTraceId);
    expect(created.answer).toStrictEqual({ name: 'Fern' });
    expect(patched.answer).toStrictEqual({ id: 1, name: 'Monstera' });
    const read = getPlant.with(http);
    const got = await invokeHandler(
      read,
      httpApiEvent({
        method: 'GET',
        path: '/plants/1',
        route: 'GET /plants/{id}',
        pathParameters: { id: '1' },
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    expect(JSON.parse(got.body)).toStrictEqual({ id: 1, name: 'Monstera' });
    expect(await allPages('alice', 10)).toEqual([[1]]);

    // a write with no trace id leaves none behind: an earlier one would name another request
    await store.update(1, 'alice', { changes: { name: 'Aloe' } });
    expect((await table.items())[0]).not.toHaveProperty('traceId');
  });
});

describe('update', () => {
  it("replaces the caller's plant's name and tag, removing a tag left out, and counts versions", async () => {
    await store.create({ id: 1, name: 'Fern', tag: 'shade' }, 'alice');

    const first = await store.update(1, 'alice', { changes: replacedBy({ name: 'Fern II' }) });
    const second = await store.update(1, 'alice', {
      changes: replacedBy({ name: 'Fern III', tag: 'sun' }),
      expectedVersions: [2],
    });

    expect(first).toEqual({
      outcome: 'updated',
      plant: expect.objectContaining({ id: 1, name: 'Fern II', version: 2 }),
    });
    expect(first.outcome === 'updated' && first.plant).not.toHaveProperty('tag');
    expect(second).toEqual({
      outcome: 'updated',
      plant: expect.objectContaining({ name: 'Fern III', tag: 'sun', version: 3 }),
    });
    expect(await table.items()).toEqual([
      expect.objectContaining({
        id: 1,
        name: 'Fern III',
        tag: 'sun',
        version: 3,
        createdBy: 'alice',
      }),
    ]);
  });

  it('writes nothing for a stale version, and says which version the plant has', async () => {
    await store.create({ id: 1, name: 'Fern' }, 'alice');
    await store.update(1, 'alice', { changes: replacedBy({ name: 'Fern II' }) });
    const before = await table.items();

    const result = await store.update(1, 'alice', {
      changes: replacedBy({ name: 'lost update' }),
      expectedVersions: [1],
    });

    expect(result).toEqual({ outcome: 'versionMismatch', version: 2 });
    expect(await table.items()).toEqual(before);
  });

  it('matches no version for an empty list of expected versions', async () => {
    await store.create({ id: 1, name: 'Fern' }, 'alice');

    expect(
      await store.update(1, 'alice', { changes: replacedBy({ name: 'x' }), expectedVersions: [] }),
    ).toEqual({ outcome: 'versionMismatch', version: 1 });
  });

  it('takes a plant stored before versions existed as version 1, and makes it 2', async () => {
    await table.put({
      id: 3,
      name: 'Old',
      createdAt: '2025-01-01T00:00:00.000Z',
      createdBy: 'alice',
    });

    const result = await store.update(3, 'alice', {
      changes: replacedBy({ name: 'New' }),
      expectedVersions: [1],
    });

    expect(result.outcome === 'updated' && result.plant.version).toBe(2);
  });

  it("never creates a plant, and never touches another caller's", async () => {
    await store.create({ id: 1, name: 'Fern' }, 'bob');
    const before = await table.items();

    expect(await store.update(2, 'alice', { changes: replacedBy({ name: 'x' }) })).toEqual({
      outcome: 'notFound',
      reason: 'absent',
    });
    expect(await store.update(1, 'alice', { changes: replacedBy({ name: 'x' }) })).toEqual({
      outcome: 'notFound',
      reason: 'notOwner',
    });
    expect(await table.items()).toEqual(before);
  });

  it('lets exactly one of two updates with the same expected version win', async () => {
    await store.create({ id: 1, name: 'Fern' }, 'alice');

    const results = await Promise.all(
      ['A', 'B'].map((name) =>
        store.update(1, 'alice', { changes: replacedBy({ name }), expectedVersions: [1] }),
      ),
    );

    expect(results.map((r) => r.outcome).sort()).toEqual(['updated', 'versionMismatch']);
    const winner = results.find((r) => r.outcome === 'updated');
    expect(await table.items()).toEqual([
      expect.objectContaining({
        name: winner?.outcome === 'updated' ? winner.plant.name : '?',
        version: 2,
      }),
    ]);
  });

  it('never brings back a plant that a racing delete removed', async () => {
    for (let round = 0; round < 20; round++) {
      await store.create({ id: round, name: 'Fern' }, 'alice');
      const [update, removal] = await Promise.all([
        store.update(round, 'alice', { changes: replacedBy({ name: 'updated' }) }),
        store.delete(round, 'alice'),
      ]);
      expect(removal.outcome).toBe('deleted');
      expect(['updated', 'notFound']).toContain(update.outcome);
    }
    expect(await table.items()).toEqual([]);
  });
});

describe('delete', () => {
  it("deletes the caller's plant once, and nobody else's", async () => {
    await store.create({ id: 1, name: 'Fern' }, 'alice');
    await store.create({ id: 2, name: 'Ivy' }, 'bob');

    expect(await store.delete(2, 'alice')).toEqual({ outcome: 'notFound', reason: 'notOwner' });
    expect(await store.delete(1, 'alice')).toEqual({ outcome: 'deleted' });
    expect(await store.delete(1, 'alice')).toEqual({ outcome: 'notFound', reason: 'absent' });
    expect((await table.items()).map((item) => item.id)).toEqual([2]);
  });
});
