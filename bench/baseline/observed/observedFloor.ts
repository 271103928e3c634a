// POST /plants, the floor plus by hand what ours writes per request: one JSON line with ours' keys
// and fields, its outcome counted as a field, and a CloudWatch EMF block for a published outcome
// (and ColdStart, on a container's first line), to stdout, as ours writes it. It only watches the
// floor's create (or ./middyZodFloor.ts's): what ours costs past one observable job. Not shipped.
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { DEFAULT_METRICS_NAMESPACE, SERVICE_NAME } from '#lib/config/telemetry.ts';
import { ROUTES, routeKey } from '#lib/routes/routeList.ts';
import { type MetricName, PUBLISHED_METRICS, traceIdOf } from '#lib/telemetry.ts';
import type { Reply } from '../common.ts';
import { createPlant, type Seen } from '../createPlant.ts';

const namespace = process.env.METRICS_NAMESPACE ?? DEFAULT_METRICS_NAMESPACE;
const route = routeKey(ROUTES.createPlant);

/** Each status the floor's create answers: its metric, and the outcome ours logs. */
const outcomes: Record<number, { metric: MetricName; outcome?: string }> = {
  200: { metric: 'PlantsCreated', outcome: 'created' },
  400: { metric: 'ValidationFailures' },
  401: { metric: 'AuthFailures' },
  409: { metric: 'PlantConflicts', outcome: 'conflict' },
  503: { metric: 'StoreUnavailable', outcome: 'unavailable' },
};

const published = new Set<string>([...PUBLISHED_METRICS, 'ColdStart']);

/** The counts, and the EMF block publishing those of them that are published, by service. */
const counted = (names: string[]) => {
  const directives = names
    .filter((name) => published.has(name))
    .map((name) => ({
      Namespace: namespace,
      Dimensions: [['service']],
      Metrics: [{ Name: name, Unit: 'Count' }],
    }));
  return {
    ...(directives.length > 0
      ? { _aws: { Timestamp: Date.now(), CloudWatchMetrics: directives } }
      : {}),
    ...Object.fromEntries(names.map((name) => [name, 1])),
  };
};

let coldStart = true;

/** A create (the floor's, or ./middyZodFloor.ts's) logged by hand as ours logs. */
export const observed =
  (create: (event: APIGatewayProxyEventV2, seen: Seen, context: Context) => Promise<Reply>) =>
  async (event: APIGatewayProxyEventV2, context: Context) => {
    const started = performance.now();
    const wasColdStart = coldStart;
    coldStart = false;
    const seen: Seen = {};
    const response = await create(event, seen, context);
    const { statusCode } = response;
    const { metric, outcome } = outcomes[statusCode] ?? { metric: 'InternalErrors' };
    const refused = statusCode >= 400 && statusCode < 500;
    const counts: string[] = wasColdStart ? [metric, 'ColdStart'] : [metric];
    const line = {
      level: statusCode === 500 ? 'ERROR' : statusCode >= 500 ? 'WARN' : 'INFO',
      message: statusCode < 400 ? 'request' : refused ? 'request refused' : 'request failed',
      timestamp: new Date().toISOString(),
      service: SERVICE_NAME,
      cold_start: wasColdStart,
      function_name: context.functionName,
      function_request_id: context.awsRequestId,
      xray_trace_id: traceIdOf(context),
      route,
      status: statusCode,
      latencyMs: Math.round((performance.now() - started) * 10) / 10,
      ...(seen.plantId === undefined ? {} : { plantId: seen.plantId }),
      ...(seen.sub === undefined ? {} : { callerSub: seen.sub }),
      ...(seen.detail === undefined ? {} : { detail: seen.detail }),
      ...(outcome ? { outcome } : {}),
      ...(refused ? { reason: JSON.parse(response.body ?? '{}').message } : {}),
      ...counted(counts),
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
    return response;
  };

// pure: a bundle that takes only `observed` (middyZodFloor.ts) leaves the floor's create out
export const handler = /* @__PURE__ */ observed(createPlant);
