// Bad input, property-based: at least 10,000 generated requests per run, from valid to hostile
// (requestArbitraries.ts), through the real handler and its real store on DynamoDB Local. The
// oracle is an independent model of docs/api.md (apiModel.ts): every answer has the status the rules
// give, every error is exactly the Error object, nothing is ever a 500, and the table holds exactly
// the plants that were answered 200, with the content that was sent.
//
// Each property run sends a sequence of requests to an empty table, so that retries and conflicts
// happen within it and a failure shrinks to a short sequence. A failure prints the seed, the path
// and the shrunk counterexample; replay it with
//   FC_SEED=<seed> FC_PATH=<path> npx vitest run --project reliability test/reliability/badInput.test.ts
// FC_REQUESTS changes how many requests a run sends in all (default 10,000).

import { BatchWriteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { creatorTagOf } from '#lib/plants/creatorTag.ts';
import createPlant from '#lib/routes/createPlant.ts';
import {
  createDynamoPlantStore,
  createTestTable,
  localDocumentClient,
} from '../support/dynamodbTables.ts';
import { httpApiEvent, invokeHandler, lambdaContext } from '../support/events.ts';
import { contractViolations } from '../support/openapiResponses.ts';
import { quietTelemetry } from '../support/telemetry.ts';
import { makeKey, signToken, verifierTrusting } from '../support/tokens.ts';
import {
  applyToStore,
  type ClientRequest,
  deliveredHeaders,
  type Expected,
  type ModelPlant,
  type StoredModelPlant,
  verdictFor,
} from './apiModel.ts';
import {
  type GeneratedRequest,
  requestSequenceArb,
  type TestTokens,
} from './requestArbitraries.ts';

const endpoint = inject('dynamodbEndpoint');

const TARGET_REQUESTS = Number(process.env.FC_REQUESTS ?? 10_000);
/** Requests per property run: a sequence long enough for retries and conflicts to meet. */
const MAX_SEQUENCE = 100;

let table: Awaited<ReturnType<typeof createTestTable>>;
let handler: ReturnType<typeof createPlant.with>;
let tokens: TestTokens;
let subjects: Map<string, string>;
const documents = localDocumentClient(endpoint);

beforeAll(async () => {
  table = await createTestTable(endpoint);
  const key = await makeKey('ES256');
  handler = createPlant.with({
    ...quietTelemetry(),
    plantStore: createDynamoPlantStore({ client: documents, table: table.name }),
    verifyToken: await verifierTrusting(key),
  });
  tokens = {
    alice: await signToken(key, { subject: 'alice' }),
    bob: await signToken(key, { subject: 'bob' }),
    stranger: await signToken(await makeKey('ES256'), { subject: 'mallory' }),
    expired: await signToken(key, { subject: 'alice', expiresIn: -3600 }),
  };
  subjects = new Map([
    [tokens.alice, 'alice'],
    [tokens.bob, 'bob'],
  ]);
});
afterAll(async () => {
  await table.drop();
  documents.destroy();
});

const scanAll = async () => {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new ScanCommand({ TableName: table.name, ConsistentRead: true, ExclusiveStartKey: start }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
};

const clearTable = async () => {
  const items = await scanAll();
  for (let i = 0; i < items.length; i += 25) {
    await documents.send(
      new BatchWriteCommand({
        RequestItems: {
          [table.name]: items
            .slice(i, i + 25)
            .map((item) => ({ DeleteRequest: { Key: { id: item.id } } })),
        },
      }),
    );
  }
};

/** The event API Gateway would hand the function for this request. */
const eventOf = (request: ClientRequest): APIGatewayProxyEventV2 =>
  httpApiEvent({
    headers: deliveredHeaders(request),
    body: request.body ?? null,
    isBase64Encoded: request.isBase64Encoded,
  });

/**
 * A Lambda context with time to spare: this suite is about input, and a busy machine must not turn
 * a slow DynamoDB Local into a 503 (store faults have their own suite).
 */
const roomyContext = () => lambdaContext(120_000);

/** A plant as the service answers it: its content, without the id. */
const plantBody = ({ id: _id, ...content }: ModelPlant) => content;

/** Throws, saying what differs, when the answer is not what the model expects. */
const checkAnswer = (
  expected: Expected,
  response: { statusCode: number; headers?: Record<string, string>; body: string },
) => {
  const headers = response.headers ?? {};
  const got = `${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, `expected ${expected.status}, got ${got}`).toBe(expected.status);
  const contentType = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type');
  expect(contentType?.[1], 'Content-Type').toMatch(/^application\/json/);
  const body = JSON.parse(response.body) as Record<string, unknown>;
  if (expected.status === 200) {
    expect(body, 'the Plant, exactly as sent').toStrictEqual(plantBody(expected.plant));
  } else {
    expect(body, 'exactly the Error object').toStrictEqual({
      error: expected.status,
      message: expect.any(String),
    });
    const message = String(body.message);
    expect(message.length, 'a message').toBeGreaterThan(0);
    for (const token of Object.values(tokens)) expect(message).not.toContain(token);
  }
  if (response.statusCode === 401) {
    const challenge = Object.entries(headers).find(([k]) => k.toLowerCase() === 'www-authenticate');
    expect(challenge?.[1], 'WWW-Authenticate').toMatch(/^Bearer realm="plants"/);
  }
  const violations = contractViolations('POST', '/plants', {
    status: response.statusCode,
    headers,
    body: response.body,
  });
  expect(violations, 'openapi.yaml').toEqual([]);
};

/** The table holds exactly the plants answered 200, as first sent, with their creator. */
const checkTable = async (model: ReadonlyMap<bigint, StoredModelPlant>) => {
  const byId = (a: { id?: unknown }, b: { id?: unknown }) => Number(a.id) - Number(b.id);
  const stored = (await scanAll()).sort(byId);
  const expected = [...model.values()]
    .map(({ createdBy, ...plant }) => ({
      ...plantBody(plant),
      id: Number(plant.id),
      createdBy,
      // the key of the tag list's index, for a plant with a tag
      ...(typeof plant.tag === 'string'
        ? { createdByTag: creatorTagOf(createdBy, plant.tag) }
        : {}),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      version: 1,
      // the writing request's, for the stream's consumers
      traceId: expect.stringMatching(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/),
    }))
    .sort(byId);
  expect(stored, 'the table').toStrictEqual(expected);
};

describe('POST /plants with generated input', () => {
  it(`answers ${TARGET_REQUESTS} generated requests as docs/api.md says, and stores exactly what it answered 200`, async () => {
    let sent = 0;
    const answered = new Map<string, number>();
    const property = fc.asyncProperty(
      requestSequenceArb(tokens, MAX_SEQUENCE),
      async (requests: GeneratedRequest[]) => {
        await clearTable();
        const model = new Map<bigint, StoredModelPlant>();
        for (const [index, request] of requests.entries()) {
          const expected = applyToStore(model, verdictFor(request, subjects));
          const response = await invokeHandler(handler, eventOf(request), roomyContext());
          sent += 1;
          const kind = expected.status === 200 && expected.replay ? '200 replay' : expected.status;
          answered.set(String(kind), (answered.get(String(kind)) ?? 0) + 1);
          try {
            checkAnswer(expected, response);
          } catch (error) {
            const why = 'reason' in expected ? ` (${expected.reason})` : '';
            throw new Error(
              `request ${index + 1} of ${requests.length}${why}: ${(error as Error).message}`,
            );
          }
        }
        await checkTable(model);
      },
    );

    const replay = process.env.FC_PATH;
    const firstSeed = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31));
    // the sequences vary in length: run rounds (seed, seed+1, ...) until enough requests were sent
    for (let round = 0; sent < TARGET_REQUESTS; round++) {
      const numRuns = Math.max(1, Math.ceil((TARGET_REQUESTS - sent) / (MAX_SEQUENCE / 2)));
      await fc.assert(property, {
        seed: firstSeed + round,
        numRuns,
        ...(replay ? { path: replay } : {}),
      });
      if (replay) break;
    }
    const tally = [...answered].sort().map(([status, count]) => `${status}: ${count}`);
    console.info(`bad input: ${sent} requests (${tally.join(', ')}), first seed ${firstSeed}`);
    expect(replay || sent >= TARGET_REQUESTS).toBeTruthy();
  });
});
