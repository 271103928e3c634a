import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { creatorTagOf } from '#lib/plants/creatorTag.ts';
import createPlant from '#lib/routes/createPlant.ts';
import {
  createDynamoPlantStore,
  createTestTable,
  localDocumentClient,
} from '../support/dynamodbTables.ts';
import { httpApiEvent, invokeHandler } from '../support/events.ts';
import { expectResponseMatchesContract } from '../support/openapiResponses.ts';
import { quietTelemetry } from '../support/telemetry.ts';
import { makeKey, signToken, verifierTrusting } from '../support/tokens.ts';

const endpoint = inject('dynamodbEndpoint');

describe('POST /plants handler on DynamoDB Local', () => {
  let table: Awaited<ReturnType<typeof createTestTable>>;
  let handler: ReturnType<typeof createPlant.with>;
  let token: string;
  let strangerToken: string;

  const post = async (body: string | undefined, headers: Record<string, string> = {}) => {
    const event = httpApiEvent({
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: body ?? null,
    });
    const response = await invokeHandler(handler, event);
    expectResponseMatchesContract('POST', '/plants', {
      status: response.statusCode,
      headers: response.headers ?? {},
      body: response.body,
    });
    return { status: response.statusCode, body: JSON.parse(response.body) as unknown };
  };

  beforeAll(async () => {
    table = await createTestTable(endpoint);
    const key = await makeKey('ES256');
    handler = createPlant.with({
      ...quietTelemetry(),
      plantStore: createDynamoPlantStore({
        client: localDocumentClient(endpoint),
        table: table.name,
      }),
      verifyToken: await verifierTrusting(key),
    });
    token = await signToken(key, { subject: 'alice' });
    strangerToken = await signToken(await makeKey('ES256'), { subject: 'mallory' });
  });
  afterAll(() => table.drop());

  it('writes nothing for any rejected request', async () => {
    const rejected = [
      await post('{"id":1,"name":"Fern"}', { authorization: '' }),
      await post('{"id":1,"name":"Fern"}', { authorization: `Bearer ${strangerToken}` }),
      await post('{"id":1,"name":"Fern"}', { 'content-type': 'text/plain' }),
      await post(JSON.stringify({ id: 1, name: 'x'.repeat(70_000) })),
      await post('{"id":1,"name":'),
      await post('{"id":"1","name":"Fern"}'),
      await post('{"id":9007199254740993,"name":"Fern"}'),
      await post('{"id":1,"name":"Fern","tag":null}'),
      await post('{"id":1,"name":"Fern","__proto__":{"admin":true}}'),
      await post(undefined),
    ];

    expect(rejected.map((r) => r.status)).toEqual([
      401, 401, 415, 413, 400, 400, 400, 400, 400, 400,
    ]);
    expect(await table.items()).toEqual([]);
  });

  it('stores the plant with its creator, without extra properties, and answers the Plant', async () => {
    const response = await post(
      '{"id":10,"name":"Monstera","tag":"indoor","createdBy":"mallory","admin":true}',
    );

    expect(response).toEqual({ status: 200, body: { name: 'Monstera', tag: 'indoor' } });
    const items = await table.items();
    expect(items).toEqual([
      {
        id: 10,
        name: 'Monstera',
        tag: 'indoor',
        createdBy: 'alice',
        createdByTag: creatorTagOf('alice', 'indoor'),
        createdAt: expect.any(String),
        version: 1,
        // the writing request's, for the stream's consumers (never answered)
        traceId: expect.stringMatching(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/),
      },
    ]);
    expect(new Date(String(items[0]?.createdAt)).toISOString()).toBe(items[0]?.createdAt);
  });

  it('answers a retry with 200 and a different plant with the same id with 409, changing nothing', async () => {
    await post('{"id":11,"name":"Aloe"}');
    const stored = await table.items();

    expect(await post('{"id":11,"name":"Aloe"}')).toEqual({ status: 200, body: { name: 'Aloe' } });
    expect(await post('{"id":11,"name":"Cactus"}')).toMatchObject({
      status: 409,
      body: { error: 409 },
    });
    expect(await table.items()).toEqual(stored);
  });

  it('answers a retry of id -0 (stored as 0) with 200: the id is the same number', async () => {
    expect(await post('{"id":-0.0,"name":"Moss"}')).toEqual({
      status: 200,
      body: { name: 'Moss' },
    });
    expect(await post('{"id":-0,"name":"Moss"}')).toEqual({ status: 200, body: { name: 'Moss' } });
    expect(await post('{"id":0,"name":"Moss"}')).toEqual({ status: 200, body: { name: 'Moss' } });
  });
});
