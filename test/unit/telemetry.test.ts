import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from 'aws-lambda';
import { beforeAll, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { VerifyToken } from '#lib/auth/tokenVerifier.ts';
import type { TelemetrySettings } from '#lib/config/telemetry.ts';
import { TIMEOUT_MARGIN_MS } from '#lib/http/pipeline.ts';
import createPlant from '#lib/routes/createPlant.ts';
import {
  CUSTOM_METRICS,
  createTelemetry,
  currentTraceId,
  type LineFields,
  METRIC_NAMES,
  traced,
} from '#lib/telemetry.ts';
import { httpApiEvent, invokeHandler, lambdaContext } from '../support/events.ts';
import { FakePlantStore } from '../support/fakePlantStore.ts';
import { type RecordedTelemetry, recordTelemetry } from '../support/telemetry.ts';
import { makeKey, signToken, type TestKey, verifierTrusting } from '../support/tokens.ts';

const SECRET_NAME = 'Fern-7f3a-not-for-logs';

let key: TestKey;
let verifyToken: VerifyToken;
let token: string;
let telemetry: RecordedTelemetry;
let handler: ReturnType<typeof createPlant.with>;

let store: FakePlantStore;

beforeAll(async () => {
  key = await makeKey('ES256');
  verifyToken = await verifierTrusting(key);
  token = await signToken(key, { subject: 'alice' });
});
beforeEach(() => {
  store = new FakePlantStore();
  telemetry = recordTelemetry();
  handler = createPlant.with({ plantStore: store, verifyToken, ...telemetry });
});

const send = (body: string, authorization = `Bearer ${token}`) =>
  invokeHandler(
    handler,
    httpApiEvent({ headers: { authorization, 'content-type': 'application/json' }, body }),
  );

const logLines = () => telemetry.documents().filter((doc) => typeof doc.message === 'string');
/** The metric names of the EMF documents written, in order. */
const metricNames = () => telemetry.metricNames();

/** Telemetry of these settings, and the lines it wrote. */
const writingTo = (settings: Pick<TelemetrySettings, 'logLevel' | 'coldStarts'>) => {
  const lines: string[] = [];
  const telemetry = createTelemetry(
    { serviceName: 'plant-store', metricsNamespace: 'Test', ...settings },
    (line) => lines.push(line),
  );
  return { telemetry, lines };
};

describe('request telemetry', () => {
  it.each([
    [
      'a created plant',
      'created',
      `{"id":42,"name":"${SECRET_NAME}"}`,
      undefined,
      200,
      'INFO',
      'PlantsCreated',
    ],
    [
      'a replay',
      'replayed',
      `{"id":42,"name":"${SECRET_NAME}"}`,
      undefined,
      200,
      'INFO',
      'PlantReplays',
    ],
    [
      'a 400',
      'created',
      `{"id":"42","name":"${SECRET_NAME}"}`,
      undefined,
      400,
      'INFO',
      'ValidationFailures',
    ],
    [
      'a 401',
      'created',
      `{"id":42,"name":"${SECRET_NAME}"}`,
      'Bearer not-a-token',
      401,
      'INFO',
      'AuthFailures',
    ],
    [
      'a 409',
      'conflict',
      `{"id":42,"name":"${SECRET_NAME}"}`,
      undefined,
      409,
      'INFO',
      'PlantConflicts',
    ],
    [
      'a 503',
      'unavailable',
      `{"id":42,"name":"${SECRET_NAME}"}`,
      undefined,
      503,
      'WARN',
      'StoreUnavailable',
    ],
  ] as const)(
    'writes one log line and one metric for %s',
    async (_case, storeOutcome, body, authorization, status, level, metric) => {
      if (storeOutcome === 'unavailable') store.fault = storeOutcome;
      else store.answer = storeOutcome;
      // a first request takes the cold start, so the one under test is a warm one
      await send('{"id":1,"name":"warm-up"}');
      telemetry.clear();

      const response = await send(body, authorization);

      expect(response.statusCode).toBe(status);
      const lines = logLines();
      expect(lines).toHaveLength(1);
      const [line] = lines;
      expect(line).toMatchObject({
        level,
        service: 'plant-store',
        function_request_id: 'aws-request-id',
        cold_start: false,
        route: 'POST /plants',
        status,
        latencyMs: expect.any(Number),
      });
      const storeSawIt = status === 200 || status === 409 || status === 503;
      expect(line?.plantId).toBe(storeSawIt ? 42 : undefined);
      expect(line?.callerSub).toBe(status === 401 ? undefined : 'alice');
      if (status >= 500)
        // the store's own error: what made the request fail, with its stack
        expect(line?.error).toMatchObject({
          name: 'ThrottlingException',
          stack: expect.any(String),
        });
      if (status >= 400 && status < 500) expect(line?.reason).toEqual(expect.any(String));
      expect(metricNames()).toEqual([metric]);
      // never the body, never the token
      expect(telemetry.text()).not.toContain(SECRET_NAME);
      expect(telemetry.text()).not.toContain(token);
    },
  );

  it('counts a cold start once, in the configured namespace, on the line of the request', async () => {
    await send('{"id":1,"name":"first"}');
    await send('{"id":2,"name":"second"}');

    const documents = telemetry.documents();
    // one line per request: the log line is the metric document
    expect(documents).toHaveLength(2);
    const namespaces = documents.flatMap((doc) =>
      (
        (doc._aws as { CloudWatchMetrics: { Namespace: string }[] } | undefined)
          ?.CloudWatchMetrics ?? []
      ).map((d) => d.Namespace),
    );
    expect(namespaces).toEqual(['PlantStoreTest']);
    expect(metricNames()).toEqual(['PlantsCreated', 'ColdStart', 'PlantsCreated']);
    // a created plant is counted in its line only; the cold start is published too, by service
    expect(telemetry.publishedMetricNames()).toEqual(['ColdStart']);
    expect(documents[0]?._aws).toMatchObject({
      CloudWatchMetrics: [{ Dimensions: [['service']], Metrics: [{ Name: 'ColdStart' }] }],
    });
    expect(documents[1]).not.toHaveProperty('_aws');
    expect(documents.map((line) => [line.cold_start, line.PlantsCreated, line.ColdStart])).toEqual([
      [true, 1, 1],
      [false, 1, undefined],
    ]);
  });

  it('writes each line as CloudWatch reads an EMF document: every dimension and metric at the root', async () => {
    await send('{"id":1,"name":"first"}');

    const line = telemetry.documents()[0] ?? {};
    const { CloudWatchMetrics, Timestamp } = line._aws as {
      Timestamp: number;
      CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[];
    };
    expect(Math.abs(Timestamp - Date.now())).toBeLessThan(5000);
    for (const { Dimensions, Metrics } of CloudWatchMetrics) {
      for (const dimension of Dimensions.flat())
        expect(line?.[dimension]).toEqual(expect.any(String));
      for (const { Name, Unit } of Metrics) {
        expect(Unit).toBe('Count');
        expect(line[Name]).toBe(1);
      }
    }
  });

  it('says cold_start only for the first invocation, even when it wrote no line', async () => {
    const { telemetry: container, lines } = writingTo({ logLevel: 'INFO', coldStarts: true });
    const first = { functionName: 'f', awsRequestId: 'r1' };
    const second = { functionName: 'f', awsRequestId: 'r2' };
    container.start(first);
    // the first invocation ends without a line (a batch of messages not due yet)
    container.start(second);
    container.record(second, {
      level: 'INFO',
      message: 'webhook delivered',
      metric: 'WebhooksDelivered',
    });

    const [line] = lines.map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(line).toMatchObject({ cold_start: false, WebhooksDelivered: 1 });
    expect(line?.ColdStart).toBeUndefined();
  });

  it("writes the invocation's X-Ray trace id: Lambda's Root, or where it is unset one made per invocation", async () => {
    const { telemetry: container, lines } = writingTo({ logLevel: 'INFO', coldStarts: false });
    const entry = { level: 'INFO', message: 'request', metric: 'PlantsRead' } as const;
    const first = { functionName: 'f', awsRequestId: 'r1' };
    const second = { functionName: 'f', awsRequestId: 'r2' };
    const root = '1-6a1b2c3d-0123456789abcdef01234567';
    const traceIds = () =>
      lines.map((line) => (JSON.parse(line) as Record<string, unknown>).xray_trace_id);
    try {
      process.env._X_AMZN_TRACE_ID = `Root=${root};Parent=53995c3f42cd8ad8;Sampled=1`;
      container.record(first, entry);
      expect(traceIds()).toEqual([root]);

      delete process.env._X_AMZN_TRACE_ID;
      lines.length = 0;
      container.record(first, entry);
      container.record(first, entry);
      container.record(second, entry);
      const [made, again, other] = traceIds();
      expect(made).toMatch(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/);
      expect(again).toBe(made);
      expect(other).not.toBe(made);
      // the time part is the invocation's, in seconds, as X-Ray's
      const madeAt = Number.parseInt(String(made).slice(2, 10), 16);
      expect(Math.abs(madeAt - Date.now() / 1000)).toBeLessThan(2);
    } finally {
      delete process.env._X_AMZN_TRACE_ID;
    }
  });

  it("hands a traced handler's trace id to what it calls, the id its lines write", async () => {
    const { telemetry: container, lines } = writingTo({ logLevel: 'INFO', coldStarts: false });
    const seen: (string | undefined)[] = [];
    const handler = traced(async (_event: unknown, context: Context) => {
      await Promise.resolve();
      seen.push(currentTraceId());
      container.record(context, { level: 'INFO', message: 'request', metric: 'PlantsUpdated' });
    });

    await Promise.all([handler({}, lambdaContext()), handler({}, lambdaContext())]);

    const written = lines.map(
      (line) => (JSON.parse(line) as Record<string, unknown>).xray_trace_id,
    );
    expect(seen).toEqual(written);
    expect(new Set(seen).size).toBe(2);
    expect(currentTraceId()).toBeUndefined();
  });

  it('lets no field take a key the line writes itself (checked by npm run typecheck)', () => {
    expectTypeOf<{ plantId: number; detail: string }>().toExtend<LineFields>();
    expectTypeOf<{ plantId: number; level: string }>().not.toExtend<LineFields>();
    expectTypeOf<{ PlantsCreated: number }>().not.toExtend<LineFields>();
    expectTypeOf<{ xray_trace_id: string }>().not.toExtend<LineFields>();
  });

  it('still publishes an outcome below the log level, as the metric alone; one only in the logs is not written', async () => {
    const { telemetry: quietLogs, lines } = writingTo({ logLevel: 'WARN', coldStarts: false });
    const invocation = { functionName: 'f', awsRequestId: 'r' };
    quietLogs.record(invocation, {
      level: 'INFO',
      message: 'request',
      metric: 'PlantsRead',
      fields: { plantId: 7 },
    });
    quietLogs.record(invocation, {
      level: 'INFO',
      message: 'request failed',
      metric: 'InternalErrors',
    });
    quietLogs.record(invocation, {
      level: 'WARN',
      message: 'request failed',
      metric: 'StoreUnavailable',
    });

    const [counted, logged, ...more] = lines.map(
      (line) => JSON.parse(line) as Record<string, unknown>,
    );
    expect(more).toEqual([]);
    expect(counted).toEqual({
      service: 'plant-store',
      function_name: 'f',
      _aws: expect.any(Object),
      InternalErrors: 1,
    });
    expect(logged).toMatchObject({ level: 'WARN', message: 'request failed', StoreUnavailable: 1 });
    expect(
      lines.every((line) => line.endsWith('}\n') && line.indexOf('\n') === line.length - 1),
    ).toBe(true);
  });

  it('logs a 500 at ERROR with the error and its stack, and tells the client nothing of it', async () => {
    store.fault = 'throw';
    store.failure = new Error('disk on fire: SECRET-4711');

    const response = await send('{"id":5,"name":"Ivy"}');

    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('SECRET-4711');
    const [line] = logLines();
    expect(line).toMatchObject({
      level: 'ERROR',
      status: 500,
      error: {
        message: 'disk on fire: SECRET-4711',
        stack: expect.stringContaining('Error: disk on fire'),
      },
    });
    expect(metricNames()).toContain('InternalErrors');
  });

  it('counts a request that ran out of time as RequestTimeouts, whatever it waited for', async () => {
    await send('{"id":1,"name":"warm-up"}');
    telemetry.clear();
    store.fault = 'hang';

    const response = await invokeHandler(
      handler,
      httpApiEvent({
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"id":6,"name":"Ivy"}',
      }),
      lambdaContext(TIMEOUT_MARGIN_MS + 50),
    );

    expect(response.statusCode).toBe(503);
    expect(metricNames()).toEqual(['RequestTimeouts']);
  });
});

describe('the metrics', () => {
  it('are each named in docs/operations.md, as the service counts them', () => {
    const operations = readFileSync(
      join(import.meta.dirname, '..', '..', 'docs', 'operations.md'),
      'utf8',
    );
    for (const name of METRIC_NAMES) expect(operations, name).toContain(`\`${name}\``);
  });

  it('publish as custom metrics only those docs/operations.md lists as published, and says how many', () => {
    const operations = readFileSync(
      join(import.meta.dirname, '..', '..', 'docs', 'operations.md'),
      'utf8',
    );
    const section = operations.slice(
      operations.indexOf('### Published as CloudWatch metrics'),
      operations.indexOf('###', operations.indexOf('### Published as CloudWatch metrics') + 4),
    );
    const listed = [...section.matchAll(/^\| `(\w+)` \|/gm)].map(([, name]) => name);
    expect(listed.sort()).toEqual([...CUSTOM_METRICS].sort());
    expect(operations).toContain(`${CUSTOM_METRICS.length} custom metrics`);
  });
});
