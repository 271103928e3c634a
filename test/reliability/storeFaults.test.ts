// Store faults: our own fault-injecting proxy (test/support/faultProxy.ts) between the DynamoDB
// client and DynamoDB Local shows that the SDK retries transient faults with backoff, that
// persistent faults end in 503 with Retry-After within a bound derived from the client's
// configuration (test/support/retryBound.ts) and kept below the function timeout in serverless.yml,
// that a hung connection is cut by the client's request timeout, and that a write whose reply was
// lost is safe to retry.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { MAXIMUM_RETRY_DELAY, Retry } from '@smithy/core/retry';
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  inject,
  it,
  vi,
} from 'vitest';
import { parse } from 'yaml';
import type { VerifyToken } from '#lib/auth/tokenVerifier.ts';
import type { DynamoDbSettings } from '#lib/config/store.ts';
import { TIMEOUT_MARGIN_MS } from '#lib/http/pipeline.ts';
import createPlant from '#lib/routes/createPlant.ts';
import listPlants from '#lib/routes/listPlants.ts';
import { repoRoot } from '../../infra/local/paths.ts';
import { loadStoreFunctionConfig, type StoreFunctionConfig } from '../support/config.ts';
import {
  createDynamoPlantStore,
  createTestTable,
  localDocumentClient,
} from '../support/dynamodbTables.ts';
import { httpApiEvent, invokeHandler, lambdaContext } from '../support/events.ts';
import { type FaultKind, type FaultProxy, startFaultProxy } from '../support/faultProxy.ts';
import { expectResponseMatchesContract } from '../support/openapiResponses.ts';
import {
  MAX_BACKOFF_MS,
  retryBackoffBoundMs,
  storeRequestBoundMs,
  THROTTLING_BACKOFF_BASE_MS,
} from '../support/retryBound.ts';
import { quietTelemetry } from '../support/telemetry.ts';
import { makeKey, signToken, verifierTrusting } from '../support/tokens.ts';

const endpoint = inject('dynamodbEndpoint');

/** The function timeout that serverless.yml deploys (its CloudFormation tags need not resolve). */
const functionTimeoutMs = () => {
  const template = parse(readFileSync(join(repoRoot, 'serverless.yml'), 'utf8'), {
    logLevel: 'error',
  }) as { provider?: { timeout?: unknown } };
  const seconds = template.provider?.timeout;
  if (typeof seconds !== 'number')
    throw new Error('serverless.yml: provider.timeout is not a number');
  return seconds * 1000;
};

/** The deployed DynamoDB client settings: lib/config/store.ts defaults, pointed at `dynamodbEndpoint`. */
const deployedConfig = (dynamodbEndpoint?: string): StoreFunctionConfig =>
  loadStoreFunctionConfig({
    PLANTS_TABLE: 'plants',
    AUTH_ISSUER: 'https://issuer.example.com/',
    AUTH_AUDIENCE: 'plant-store',
    ...(dynamodbEndpoint ? { DYNAMODB_ENDPOINT: dynamodbEndpoint } : {}),
  });

/** Short timeouts, so that persistent faults end quickly; three attempts, as deployed. */
const FAST: Pick<DynamoDbSettings, 'maxAttempts' | 'connectTimeoutMs' | 'requestTimeoutMs'> = {
  maxAttempts: 3,
  connectTimeoutMs: 200,
  requestTimeoutMs: 400,
};

/** Room for what the bound leaves out: the handler's own work and a busy, shared machine. */
const SCHEDULING_SLACK_MS = 1500;

let proxy: FaultProxy;
let table: Awaited<ReturnType<typeof createTestTable>>;
let token: string;
let verifyToken: VerifyToken;
const clients: DynamoDBDocumentClient[] = [];

beforeAll(async () => {
  proxy = await startFaultProxy(endpoint);
  table = await createTestTable(endpoint);
  const key = await makeKey('ES256');
  verifyToken = await verifierTrusting(key);
  token = await signToken(key, { subject: 'alice' });
});
afterAll(async () => {
  for (const client of clients) client.destroy();
  await proxy.stop();
  await table.drop();
});
beforeEach(async () => {
  proxy.reset();
  await table.clear();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A client through the proxy; a new one each time, so no test inherits another's retry budget. */
const clientThroughProxy = (settings: Partial<DynamoDbSettings> = FAST) => {
  const client = localDocumentClient(proxy.endpoint, settings);
  clients.push(client);
  return client;
};

const storeThroughProxy = (settings: Partial<DynamoDbSettings> = FAST) =>
  createDynamoPlantStore({ client: clientThroughProxy(settings), table: table.name });

const handlerThroughProxy = (settings: Partial<DynamoDbSettings> = FAST) =>
  createPlant.with({ ...quietTelemetry(), plantStore: storeThroughProxy(settings), verifyToken });

/** POST /plants with `body`, as Lambda would call the function with its configured timeout. */
const post = async (handler: ReturnType<typeof createPlant.with>, body: string) => {
  const event = httpApiEvent({
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  const started = performance.now();
  const response = await invokeHandler(handler, event, lambdaContext(functionTimeoutMs()));
  const elapsedMs = performance.now() - started;
  expectResponseMatchesContract('POST', '/plants', {
    status: response.statusCode,
    headers: response.headers ?? {},
    body: response.body,
  });
  return { ...response, json: JSON.parse(response.body) as unknown, elapsedMs };
};

const putAttempts = () => proxy.attempts().filter((attempt) => attempt.operation === 'PutItem');

const expectServiceUnavailable = (response: Awaited<ReturnType<typeof post>>) => {
  expect(response.statusCode).toBe(503);
  expect(response.headers?.['Retry-After']).toMatch(/^[1-9]\d*$/);
  expect(response.json).toEqual({
    error: 503,
    message: expect.stringMatching(/plant store is busy or unreachable: retry/),
  });
};

const TRANSIENT_FAULTS: FaultKind[] = [
  'throughputExceeded',
  'throttling',
  'internalError',
  'drop',
  'hang',
];

describe('a transient fault', () => {
  it.each(TRANSIENT_FAULTS)(
    '(%s, twice) is retried by the SDK, and the plant is created',
    async (fault) => {
      proxy.script([fault, fault], 'pass');

      const response = await post(handlerThroughProxy(), '{"id":1,"name":"Fern","tag":"indoor"}');

      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({ name: 'Fern', tag: 'indoor' });
      expect(putAttempts().map((attempt) => attempt.fault.kind)).toEqual([fault, fault, 'pass']);
      expect(await table.items()).toEqual([
        expect.objectContaining({ id: 1, name: 'Fern', tag: 'indoor', createdBy: 'alice' }),
      ]);
    },
  );

  it('that is only slow (inside the request timeout) needs no retry', async () => {
    proxy.script([{ kind: 'pass', delayMs: FAST.requestTimeoutMs / 2 }]);

    const response = await post(handlerThroughProxy(), '{"id":2,"name":"Ivy"}');

    expect(response.statusCode).toBe(200);
    expect(putAttempts()).toHaveLength(1);
  });

  it.each([
    // the SDK waits floor(random × base × 2^retry) before retry 0, 1, ...: base 1000 ms after
    // throttling, DynamoDB's 25 ms after other transient errors
    ['throughputExceeded', [500, 1000]],
    ['internalError', [12, 25]],
  ] as const)('(%s) is retried after exponentially growing delays', async (fault, delays) => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    proxy.script([fault, fault], 'pass');

    const output = await clientThroughProxy().send(
      new PutCommand({ TableName: table.name, Item: { id: 3, name: 'Aloe' } }),
    );

    expect(output.$metadata).toMatchObject({
      attempts: 3,
      totalRetryDelay: delays[0] + delays[1],
    });
    // the proxy saw the waits between the attempts
    const starts = putAttempts().map((attempt) => attempt.startedAt);
    for (const [retry, delay] of delays.entries()) {
      expect((starts[retry + 1] ?? 0) - (starts[retry] ?? 0)).toBeGreaterThanOrEqual(delay - 2);
    }
  });
});

describe('a persistent fault', () => {
  it.each(TRANSIENT_FAULTS)(
    '(%s) answers 503 with Retry-After within the retry bound, writing nothing',
    async (fault) => {
      proxy.script([], fault);

      const response = await post(handlerThroughProxy(), '{"id":4,"name":"Fern"}');

      expectServiceUnavailable(response);
      expect(putAttempts()).toHaveLength(FAST.maxAttempts);
      expect(response.elapsedMs).toBeLessThanOrEqual(
        storeRequestBoundMs(FAST) + SCHEDULING_SLACK_MS,
      );
      expect(await table.items()).toEqual([]);
    },
  );

  it('at its worst (slow throttling, the longest backoffs) still ends within the bound', async () => {
    // every attempt nearly times out, then is throttled; every backoff takes its longest
    vi.spyOn(Math, 'random').mockReturnValue(0.9999);
    const slowMs = FAST.requestTimeoutMs - 100;
    proxy.script([], { kind: 'throughputExceeded', delayMs: slowMs });

    const response = await post(handlerThroughProxy(), '{"id":5,"name":"Fern"}');

    expectServiceUnavailable(response);
    const bound = storeRequestBoundMs(FAST);
    expect(response.elapsedMs).toBeLessThanOrEqual(bound + SCHEDULING_SLACK_MS);
    // and the bound is tight: this run came within the slowness it spared each attempt
    expect(response.elapsedMs).toBeGreaterThanOrEqual(
      bound - FAST.maxAttempts * (FAST.requestTimeoutMs - slowMs) - 50,
    );
  });

  it('is never retried longer than the derived backoff: the SDK reports its total wait', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    proxy.script([], 'throttling');

    const failure = await clientThroughProxy()
      .send(new PutCommand({ TableName: table.name, Item: { id: 6, name: 'Aloe' } }))
      .catch((error: unknown) => error as { name: string; $metadata: Record<string, number> });

    expect(failure).toMatchObject({ name: 'ThrottlingException' });
    const { attempts, totalRetryDelay } = (failure as { $metadata: Record<string, number> })
      .$metadata;
    expect(attempts).toBe(FAST.maxAttempts);
    expect(totalRetryDelay).toBeLessThanOrEqual(retryBackoffBoundMs(FAST.maxAttempts));
    expect(totalRetryDelay).toBeGreaterThan(
      retryBackoffBoundMs(FAST.maxAttempts) - FAST.maxAttempts,
    );
  });
});

describe("the list's index", () => {
  const list = () =>
    invokeHandler(
      listPlants.with({ ...quietTelemetry(), plantStore: storeThroughProxy(), verifyToken }),
      httpApiEvent({
        method: 'GET',
        route: 'GET /plants',
        headers: { authorization: `Bearer ${token}` },
      }),
    );

  it('when a missing one (a fault of ours, not an outage) answers 500', async () => {
    proxy.script(['unknownIndex']);
    expect((await list()).statusCode).toBe(500);
  });

  it('still being filled (the deploy of an upgrade) answers 503 with Retry-After, never 500', async () => {
    const request = list;
    proxy.script(['indexBackfilling']);
    const filling = await request();
    expect(filling.statusCode).toBe(503);
    expect(filling.headers?.['Retry-After']).toMatch(/^[1-9][0-9]*$/);
    expect(proxy.attempts().map(({ operation }) => operation)).toEqual(['Query']);
    expect((await request()).statusCode).toBe(200);
  });
});

describe('the retry bound', () => {
  it("uses the SDK's own backoff constants", () => {
    expect(Retry.v2026 ? Retry.throttlingDelay() : Number.NaN).toBe(THROTTLING_BACKOFF_BASE_MS);
    // DynamoDB's base for other transient errors is smaller: the throttling base bounds every retry
    expect(Retry.delay()).toBeLessThanOrEqual(THROTTLING_BACKOFF_BASE_MS);
    expect(MAXIMUM_RETRY_DELAY).toBe(MAX_BACKOFF_MS);
    expect(retryBackoffBoundMs(1)).toBe(0);
    expect(retryBackoffBoundMs(3)).toBe(1000 + 2000);
    expect(retryBackoffBoundMs(8)).toBe(1000 + 2000 + 4000 + 8000 + 16_000 + 20_000 + 20_000);
  });

  it('with the deployed settings, plus a key-set fetch, ends before the handler answers on its own, inside the function timeout of serverless.yml', () => {
    const config = deployedConfig();
    const keyFetchMs = config.auth.keys.kind === 'url' ? config.auth.keys.timeoutMs : 0;
    const requestBoundMs = keyFetchMs + storeRequestBoundMs(config.store.dynamodb);

    expect(requestBoundMs).toBeLessThanOrEqual(functionTimeoutMs() - TIMEOUT_MARGIN_MS);
  });

  it("cuts a hung connection with the client's request timeout, not Lambda's, with the deployed settings", async () => {
    const config = deployedConfig(proxy.endpoint);
    proxy.script([], 'hang');

    const response = await post(
      createPlant.with({
        ...quietTelemetry(),
        plantStore: createDynamoPlantStore({
          client: clientThroughProxy(config.store.dynamodb),
          table: table.name,
        }),
        verifyToken,
      }),
      '{"id":7,"name":"Fern"}',
    );

    // the store's 503, not the handler's "ran out of time" before Lambda's deadline
    expectServiceUnavailable(response);
    expect(response.elapsedMs).toBeLessThanOrEqual(
      storeRequestBoundMs(config.store.dynamodb) + SCHEDULING_SLACK_MS,
    );
    expect(response.elapsedMs).toBeLessThan(functionTimeoutMs() - TIMEOUT_MARGIN_MS);
    // every attempt was closed by the client once its request timeout had passed
    await vi.waitFor(() => expect(putAttempts().every(({ closedAt }) => closedAt)).toBe(true));
    const attempts = putAttempts();
    expect(attempts).toHaveLength(config.store.dynamodb.maxAttempts);
    for (const { startedAt, closedAt } of attempts) {
      expect(closedAt).toBeDefined();
      const openMs = (closedAt ?? 0) - startedAt;
      expect(openMs).toBeGreaterThanOrEqual(config.store.dynamodb.requestTimeoutMs - 50);
      expect(openMs).toBeLessThanOrEqual(
        config.store.dynamodb.requestTimeoutMs + SCHEDULING_SLACK_MS,
      );
    }
  });

  it('reports the hung store as a request timeout of the client', async () => {
    proxy.script([], 'hang');

    const result = await storeThroughProxy().create({ id: 8, name: 'Fern' }, 'alice');

    expect(result.outcome).toBe('unavailable');
    expect(result.outcome === 'unavailable' && result.cause).toMatchObject({
      name: 'TimeoutError',
      message: expect.stringMatching(/requestTimeout/),
    });
  });
});

describe('a write whose reply was lost', () => {
  it("is answered 200, not 409, when the SDK's retry finds the plant it wrote", async () => {
    proxy.script(['dropReply'], 'pass');

    const response = await post(handlerThroughProxy(), '{"id":9,"name":"Fern","tag":"indoor"}');

    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ name: 'Fern', tag: 'indoor' });
    expect(putAttempts().map(({ fault, forwarded }) => [fault.kind, forwarded])).toEqual([
      ['dropReply', true],
      ['pass', true],
    ]);
    expect(await table.items()).toEqual([
      expect.objectContaining({ id: 9, name: 'Fern', tag: 'indoor', createdBy: 'alice' }),
    ]);
  });

  it('is answered 200, not 409, when the client retries after the 503, and the plant is stored once', async () => {
    proxy.script([], 'dropReply');
    const handler = handlerThroughProxy();

    const first = await post(handler, '{"id":10,"name":"Fern"}');
    expectServiceUnavailable(first);
    expect(putAttempts().every(({ forwarded }) => forwarded)).toBe(true);
    const stored = await table.items();
    expect(stored).toEqual([expect.objectContaining({ id: 10, name: 'Fern' })]);

    proxy.script([], 'pass');
    const retry = await post(handler, '{"id":10,"name":"Fern"}');

    expect(retry.statusCode).toBe(200);
    expect(retry.json).toEqual({ name: 'Fern' });
    expect(await table.items()).toEqual(stored);
    // a different plant under the id is still a conflict: the rule is about content
    expect((await post(handler, '{"id":10,"name":"Ivy"}')).statusCode).toBe(409);
  });
});
