// The plant store against a real DynamoDB Local (in memory, started by the global setup).
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { CREATOR_TAG, creatorTagOf } from '#lib/plants/creatorTag.ts';
import type { PlantStore } from '#lib/plants/store.ts';
import { freePort } from '../../infra/local/freePort.ts';
import {
  createDynamoPlantStore,
  createTestTable,
  localDocumentClient,
} from '../support/dynamodbTables.ts';

const endpoint = inject('dynamodbEndpoint');
const fixedNow = () => new Date('2026-11-22T10:00:00.000Z');

describe('DynamoDB plant store', () => {
  let table: Awaited<ReturnType<typeof createTestTable>>;
  let store: PlantStore;

  beforeEach(async () => {
    table = await createTestTable(endpoint);
    store = createDynamoPlantStore({
      client: localDocumentClient(endpoint),
      table: table.name,
      now: fixedNow,
    });
  });
  afterEach(() => table.drop());

  it('creates a plant with its creator and creation time', async () => {
    const result = await store.create({ id: 1, name: 'Monstera', tag: 'indoor' }, 'alice');

    expect(result.outcome).toBe('created');
    expect(await table.items()).toEqual([
      {
        id: 1,
        name: 'Monstera',
        tag: 'indoor',
        createdAt: '2026-11-22T10:00:00.000Z',
        createdBy: 'alice',
        version: 1,
        // the key of the index of alice's plants tagged indoor
        [CREATOR_TAG]: creatorTagOf('alice', 'indoor'),
      },
    ]);
  });

  it('stores no tag attribute when the plant has none, and so no tag index key', async () => {
    await store.create({ id: 2, name: 'Fern' }, 'alice');

    const [item] = await table.items();
    expect(item).not.toHaveProperty('tag');
    expect(item).not.toHaveProperty(CREATOR_TAG);
    expect(item).toMatchObject({ id: 2, name: 'Fern' });
  });

  it('stores names exactly as sent: empty, Unicode, and ids at both ends of the range', async () => {
    await store.create({ id: Number.MAX_SAFE_INTEGER, name: '' }, 'alice');
    await store.create({ id: -Number.MAX_SAFE_INTEGER, name: 'Ficus 🌿 é\u0301' }, 'alice');

    const byId = new Map((await table.items()).map((item) => [item.id, item.name]));
    expect(byId.get(Number.MAX_SAFE_INTEGER)).toBe('');
    expect(byId.get(-Number.MAX_SAFE_INTEGER)).toBe('Ficus 🌿 é\u0301');
  });

  it('answers an identical retry as a replay and writes nothing', async () => {
    await store.create({ id: 3, name: 'Aloe', tag: 'succulent' }, 'alice');
    const before = await table.items();

    const laterStore = createDynamoPlantStore({
      client: localDocumentClient(endpoint),
      table: table.name,
      now: () => new Date('2030-01-01T00:00:00.000Z'),
    });
    const result = await laterStore.create({ id: 3, name: 'Aloe', tag: 'succulent' }, 'alice');

    const { [CREATOR_TAG]: _indexKey, ...stored } = before[0] ?? {};
    expect(result).toEqual({ outcome: 'replayed', plant: stored });
    expect(await table.items()).toEqual(before);
  });

  it('answers the same plant from another caller as a conflict, and writes nothing', async () => {
    await store.create({ id: 3, name: 'Aloe', tag: 'succulent' }, 'alice');
    const before = await table.items();

    const result = await store.create({ id: 3, name: 'Aloe', tag: 'succulent' }, 'bob');

    expect(result).toEqual({ outcome: 'conflict', reason: 'notOwner' });
    expect(await table.items()).toEqual(before);
  });

  it.each([
    ['a different name', { id: 4, name: 'Cactus', tag: 'succulent' }],
    ['a different tag', { id: 4, name: 'Aloe', tag: 'outdoor' }],
    ['no tag where one is stored', { id: 4, name: 'Aloe' }],
  ])('reports a conflict for %s and never overwrites', async (_case, plant) => {
    await store.create({ id: 4, name: 'Aloe', tag: 'succulent' }, 'alice');
    const before = await table.items();

    const result = await store.create(plant, 'bob');

    expect(result.outcome).toBe('conflict');
    expect(await table.items()).toEqual(before);
  });

  it('reports a conflict when the stored plant has no tag and the retry has one', async () => {
    await store.create({ id: 5, name: 'Aloe' }, 'alice');
    expect((await store.create({ id: 5, name: 'Aloe', tag: '' }, 'alice')).outcome).toBe(
      'conflict',
    );
  });

  it('stores exactly one plant when 50 different creates of one id race', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        store.create({ id: 6, name: `Plant ${i}` }, `user-${i}`),
      ),
    );

    const created = results.filter((r) => r.outcome === 'created');
    expect(created).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'conflict')).toHaveLength(49);
    const items = await table.items();
    expect(items).toHaveLength(1);
    expect(created[0]?.outcome === 'created' && created[0].plant).toEqual(items[0]);
  });

  it('answers 50 identical concurrent creates with one write and 49 replays', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        store.create({ id: 7, name: 'Pothos', tag: 'vine' }, 'alice'),
      ),
    );

    expect(results.filter((r) => r.outcome === 'created')).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'replayed')).toHaveLength(49);
    expect(await table.items()).toHaveLength(1);
  });

  it('reports the store as unavailable when DynamoDB cannot be reached', async () => {
    const unreachable = createDynamoPlantStore({
      client: localDocumentClient(`http://127.0.0.1:${await freePort()}`, {
        maxAttempts: 2,
        requestTimeoutMs: 500,
      }),
      table: table.name,
    });

    const result = await unreachable.create({ id: 8, name: 'Ivy' }, 'alice');

    expect(result.outcome).toBe('unavailable');
  });

  it('throws (a fault of ours, not an outage) when the table does not exist', async () => {
    const misconfigured = createDynamoPlantStore({
      client: localDocumentClient(endpoint),
      table: 'no-such-table',
    });

    await expect(misconfigured.create({ id: 9, name: 'Ivy' }, 'alice')).rejects.toThrow(
      /non-existent table|not found/i,
    );
  });
});

describe('DynamoDB plant store when DynamoDB misbehaves', () => {
  let server: Server | ReturnType<typeof createHttpServer>;
  afterEach(() => new Promise<void>((done) => server.close(() => done())));

  const listen = async (s: typeof server) => {
    server = s;
    const port = await freePort();
    await new Promise<void>((done) => server.listen(port, '127.0.0.1', () => done()));
    return `http://127.0.0.1:${port}`;
  };

  it('gives up on a connection that never answers after its request timeouts, as unavailable', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const endpoint = await listen(
      createServer((socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      }),
    );
    const store = createDynamoPlantStore({
      client: localDocumentClient(endpoint, { maxAttempts: 2, requestTimeoutMs: 300 }),
      table: 'plants',
    });

    const started = Date.now();
    const result = await store.create({ id: 1, name: 'Ivy' }, 'alice');
    const elapsed = Date.now() - started;
    for (const socket of sockets) socket.destroy();

    expect(result.outcome).toBe('unavailable');
    // two attempts of 300 ms plus a short backoff; the bug this guards answered never
    expect(elapsed).toBeLessThan(5000);
  });

  it('reports a 502 with an HTML body (a proxy error page) as unavailable, not as our fault', async () => {
    const endpoint = await listen(
      createHttpServer((_request, response) => {
        response.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad Gateway</html>');
      }),
    );
    const store = createDynamoPlantStore({
      client: localDocumentClient(endpoint, { maxAttempts: 1 }),
      table: 'plants',
    });

    expect((await store.create({ id: 1, name: 'Ivy' }, 'alice')).outcome).toBe('unavailable');
  });
});
