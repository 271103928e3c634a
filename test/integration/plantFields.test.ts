// Every field of a plant, through every route and the webhook: plants generated from the plant's
// schema (test/support/plantArbitraries.ts) are created, replayed, read, listed (by tag too), updated,
// patched and announced on DynamoDB Local, and each answer must hold exactly the plant's fields. A field
// dropped anywhere (a reply, the store's item, its update or replay check, the list's index, the
// webhook body) fails here.
import {
  DescribeStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { plantAddedEvent } from '#lib/operatorWebhook/plantAdded.ts';
import type { PlantContent } from '#lib/plants/schemas.ts';
import createPlant from '#lib/routes/createPlant.ts';
import getPlant from '#lib/routes/getPlant.ts';
import listPlants from '#lib/routes/listPlants.ts';
import patchPlant from '#lib/routes/patchPlant.ts';
import updatePlant from '#lib/routes/updatePlant.ts';
import { localStreamsClient } from '../../infra/local/dynamoClient.ts';
import {
  createDynamoPlantStore,
  createTestTable,
  localDocumentClient,
} from '../support/dynamodbTables.ts';
import { httpApiEvent, invokeHandler } from '../support/events.ts';
import { expectResponseMatchesContract } from '../support/openapiResponses.ts';
import { patched, plantContent, plantFieldNames, plantPatch } from '../support/plantArbitraries.ts';
import { quietTelemetry } from '../support/telemetry.ts';
import { makeKey, signToken, verifierTrusting } from '../support/tokens.ts';

const endpoint = inject('dynamodbEndpoint');

let table: Awaited<ReturnType<typeof createTestTable>>;
let token: string;
let routes: Record<
  'create' | 'get' | 'list' | 'update' | 'patch',
  ReturnType<typeof createPlant.with>
>;

beforeAll(async () => {
  table = await createTestTable(endpoint);
  const key = await makeKey('ES256');
  const plantStore = createDynamoPlantStore({
    client: localDocumentClient(endpoint),
    table: table.name,
  });
  const http = { ...quietTelemetry(), plantStore, verifyToken: await verifierTrusting(key) };
  routes = {
    create: createPlant.with(http),
    get: getPlant.with(http),
    list: listPlants.with(http),
    update: updatePlant.with(http),
    patch: patchPlant.with(http),
  };
  token = await signToken(key, { subject: 'gardener' });
});
afterAll(() => table.drop());

/** A request to a route, checked against the published document; its status and parsed body. */
const call = async (
  route: keyof typeof routes,
  method: string,
  template: string,
  { id, body, query = '' }: { id?: number; body?: unknown; query?: string } = {},
) => {
  const path = id === undefined ? template : template.replace('{id}', String(id));
  const response = await invokeHandler(
    routes[route],
    httpApiEvent({
      method,
      path,
      route: `${method} ${template}`,
      query,
      ...(id === undefined ? {} : { pathParameters: { id: String(id) } }),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    }),
  );
  expectResponseMatchesContract(method, template, {
    status: response.statusCode,
    headers: response.headers ?? {},
    body: response.body,
  });
  return { status: response.statusCode, body: JSON.parse(response.body || 'null') as unknown };
};

/** Every insert the table's stream holds so far, as Lambda is given them. */
const insertedRecords = async (): Promise<DynamoDBRecord[]> => {
  const streams = localStreamsClient(endpoint);
  const records: DynamoDBRecord[] = [];
  const { StreamDescription } = await streams.send(
    new DescribeStreamCommand({ StreamArn: table.streamArn }),
  );
  for (const { ShardId } of StreamDescription?.Shards ?? []) {
    let { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: table.streamArn,
        ShardId,
        ShardIteratorType: 'TRIM_HORIZON',
      }),
    );
    while (ShardIterator) {
      const page = await streams.send(new GetRecordsCommand({ ShardIterator }));
      records.push(...((page.Records ?? []) as DynamoDBRecord[]));
      ShardIterator = page.Records?.length ? page.NextShardIterator : undefined;
    }
  }
  streams.destroy();
  return records.filter((record) => record.eventName === 'INSERT');
};

describe("a plant's fields, generated from its schema", () => {
  const created = new Map<number, PlantContent>();
  const seen = new Set<string>();
  let nextId = 1;

  it('come back whole from create, replay, read, list, update and patch, and decide replays', async () => {
    await fc.assert(
      fc.asyncProperty(
        plantContent(),
        plantContent(),
        plantPatch(),
        async (first, second, patch) => {
          const id = nextId++;
          for (const field of [...Object.keys(first), ...Object.keys(second)]) seen.add(field);

          expect(await call('create', 'POST', '/plants', { body: { id, ...first } })).toEqual({
            status: 200,
            body: first,
          });
          created.set(id, first);
          expect(await call('create', 'POST', '/plants', { body: { id, ...first } })).toEqual({
            status: 200,
            body: first,
          });
          expect(await call('get', 'GET', '/plants/{id}', { id })).toEqual({
            status: 200,
            body: { id, ...first },
          });
          const listed = await call('list', 'GET', '/plants', { query: 'limit=100' });
          expect(listed.body).toContainEqual({ id, ...first });
          // by its tag too (an empty tag cannot be asked for)
          const byTag = (tag: string) =>
            call('list', 'GET', '/plants', { query: `limit=100&tag=${encodeURIComponent(tag)}` });
          if (first.tag) expect((await byTag(first.tag)).body).toContainEqual({ id, ...first });

          expect(await call('update', 'PUT', '/plants/{id}', { id, body: second })).toEqual({
            status: 200,
            body: { id, ...second },
          });
          expect(await call('get', 'GET', '/plants/{id}', { id })).toEqual({
            status: 200,
            body: { id, ...second },
          });
          if (second.tag) expect((await byTag(second.tag)).body).toContainEqual({ id, ...second });
          if (first.tag && first.tag !== second.tag) {
            const ids = ((await byTag(first.tag)).body as { id: number }[]).map(
              (plant) => plant.id,
            );
            expect(ids).not.toContain(id);
          }
          // a replay compares every field with the plant as it is now
          const replayOfFirst = await call('create', 'POST', '/plants', { body: { id, ...first } });
          expect(replayOfFirst.status).toBe(isSameContent(first, second) ? 200 : 409);
          expect(await call('create', 'POST', '/plants', { body: { id, ...second } })).toEqual({
            status: 200,
            body: second,
          });
          // the update wrote back what it was given, field by field (an update back to the first)
          expect(await call('update', 'PUT', '/plants/{id}', { id, body: first })).toEqual({
            status: 200,
            body: { id, ...first },
          });
          // a merge patch changes the fields it gives, removes those it gives null, keeps the rest
          const third = patched(first, patch);
          expect(await call('patch', 'PATCH', '/plants/{id}', { id, body: patch })).toEqual({
            status: 200,
            body: { id, ...third },
          });
          expect(await call('get', 'GET', '/plants/{id}', { id })).toEqual({
            status: 200,
            body: { id, ...third },
          });
          if (third.tag) expect((await byTag(third.tag)).body).toContainEqual({ id, ...third });
          if (first.tag && first.tag !== third.tag) {
            const ids = ((await byTag(first.tag)).body as { id: number }[]).map(
              (plant) => plant.id,
            );
            expect(ids).not.toContain(id);
          }
        },
      ),
      { numRuns: 30 },
    );
    // the runs above saw every field of the schema, or they proved nothing about it
    expect([...seen].sort()).toEqual([...plantFieldNames].sort());
  });

  it("are answered in the schema's order, and nothing else the item holds ever is", async () => {
    // written behind the store's back, attributes in another order, one that is no field
    await table.put({
      secretNote: 'not a field of a plant',
      tag: 'succulent',
      version: 3,
      createdBy: 'gardener',
      name: 'Aloe',
      createdAt: '2026-11-23T00:00:00.000Z',
      id: 9000,
    });
    const response = await invokeHandler(
      routes.get,
      httpApiEvent({
        method: 'GET',
        path: '/plants/9000',
        route: 'GET /plants/{id}',
        pathParameters: { id: '9000' },
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    expect(response.body).toBe('{"id":9000,"name":"Aloe","tag":"succulent"}');
  });

  it('are all in the plant added webhook of each created plant', async () => {
    const bodies = new Map(
      (await insertedRecords()).map((record) => {
        const event = plantAddedEvent(record);
        return [event.plantId, JSON.parse(event.body) as unknown];
      }),
    );
    expect(created.size).toBeGreaterThan(0);
    for (const [id, content] of created) expect(bodies.get(id)).toEqual({ id, ...content });
  });
});

const isSameContent = (a: PlantContent, b: PlantContent) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
