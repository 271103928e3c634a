// One JSON line per request or attempt in one write: Powertools Logger's keys, the outcome as a field
// and its EMF count (`_aws`) if published; Powertools writes them apart, costlier (docs/performance.md).
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { TelemetrySettings } from '#lib/config/telemetry.ts';

/** Every outcome: a field of its line (`"PlantsCreated": 1`) that Logs Insights sums; what each
 * counts, group by group, is docs/operations.md's (test/unit/telemetry.test.ts checks each is). */
export const METRIC_NAMES = [
  'PlantsCreated',
  'PlantReplays',
  'PlantConflicts',
  'PlantsListed',
  'PlantsRead',
  'PlantsUpdated',
  'PlantsDeleted',
  'PlantsNotFound',
  'PreconditionFailures',
  'ValidationFailures',
  'AuthFailures',
  'RoutesNotFound',
  'MethodsNotAllowed',
  'StoreUnavailable',
  'KeySetUnavailable',
  'RequestTimeouts',
  'InternalErrors',
  'EndpointsCreated',
  'EndpointsListed',
  'EndpointsRead',
  'EndpointsUpdated',
  'EndpointsDeleted',
  'EndpointSecretsRotated',
  'EndpointsNotFound',
  'EndpointLimitReached',
  'EndpointsPinged',
  'EndpointAttemptsListed',
  'EndpointEventsResent',
  'EndpointEventsNotFound',
  'EndpointResendsRefused',
  'EndpointSendsLimited',
  'DeliveryQueueUnavailable',
  'ResolverUnavailable',
  'WebhooksDelivered',
  'WebhookAttemptsFailed',
  'WebhooksDeadLettered',
  'WebhookEventsHandedBack',
  'StreamRecordsSetAside',
  'EndpointEventsQueued',
  'EndpointEventsDelivered',
  'EndpointAttemptsFailed',
  'EndpointEventsExhausted',
  'EndpointEventsDropped',
  'EndpointsDisabled',
] as const;

export type MetricName = (typeof METRIC_NAMES)[number];

// also CloudWatch custom metrics ($0.30 a month each): only those an operator acts on and AWS has
// nothing for; requests, 4xx, 5xx, latency, errors, queues and streams are AWS's own, free
export const PUBLISHED_METRICS = [
  'InternalErrors',
  'EndpointEventsExhausted',
] as const satisfies readonly MetricName[];

/** Every custom metric a stage can have: the published outcomes, and the cold starts. */
export const CUSTOM_METRICS = [...PUBLISHED_METRICS, 'ColdStart'] as const;
const published = new Set<string>(CUSTOM_METRICS);

export type Invocation = Pick<Context, 'functionName' | 'awsRequestId'>;

// the keys every line writes itself, which no field may take (it would hide the line's own); refused
// only in objects typed LineFields, not `Record<string, unknown>`: pass fields on with this type
type LoggerKey = 'level' | 'message' | 'timestamp' | 'service' | 'cold_start' | 'function_name';
type IdKey = 'function_request_id' | 'xray_trace_id';
type LineKey = LoggerKey | IdKey | '_aws' | 'ColdStart' | MetricName;
/** What a line says besides its own keys, as plain data (an Error via describeError). */
export type LineFields = Record<string, unknown> & { [key in LineKey]?: never };

export interface LogEntry {
  level: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  message: string;
  /** The outcome the line counts: counted whatever the log level. */
  metric: MetricName;
  fields?: LineFields;
}

export interface Telemetry {
  /** Called as an invocation starts: the container's first is its cold start. */
  start: (invocation: Invocation) => void;
  record: (invocation: Invocation, entry: LogEntry) => void;
}

/** The lines of one invocation (or message), each with `fields` and the line's own. */
export const linesOf =
  ({ record }: Pick<Telemetry, 'record'>, invocation: Invocation, fields: LineFields = {}) =>
  (level: LogEntry['level'], message: string, metric: MetricName, more: LineFields = {}) =>
    record(invocation, { level, message, metric, fields: { ...fields, ...more } });

const MAX_CAUSES = 5;

/** An error as a line shows it: name, message, stack and a bounded chain of causes. */
export const describeError = (error: unknown, depth = 0): unknown => {
  if (!(error instanceof Error)) return String(error);
  const { name, message, stack, cause } = error;
  const more = cause !== undefined && depth < MAX_CAUSES;
  return {
    name: String(name),
    message: String(message),
    stack,
    ...(more ? { cause: describeError(cause, depth + 1) } : {}),
  };
};

// where Lambda sets no trace id (the local run): one made per invocation, in X-Ray's form
const madeTraceIds = new WeakMap<Invocation, string>();

/** The invocation's X-Ray trace id: the Root of `_X_AMZN_TRACE_ID`, set by Lambda per invocation. */
export const traceIdOf = (invocation: Invocation): string => {
  const root = /Root=(1-[0-9a-f]{8}-[0-9a-f]{24})/.exec(process.env._X_AMZN_TRACE_ID ?? '')?.[1];
  if (root) return root;
  const seconds = Math.floor(Date.now() / 1000).toString(16);
  const made = madeTraceIds.get(invocation) ?? `1-${seconds}-${randomBytes(12).toString('hex')}`;
  madeTraceIds.set(invocation, made);
  return made;
};

// a handler's invocation's trace id, for what no line hands it to (a plant store's write)
const traceScope = /* @__PURE__ */ new AsyncLocalStorage<string>();

/** `handler`, each invocation run with its trace id at hand for currentTraceId. */
export const traced =
  <Event, Result>(handler: (event: Event, context: Context) => Promise<Result>) =>
  (event: Event, context: Context) =>
    traceScope.run(traceIdOf(context), () => handler(event, context));

/** The trace id of the invocation a `traced` handler is serving; undefined outside one. */
export const currentTraceId = () => traceScope.getStore();

const SEVERITY = { DEBUG: 0, INFO: 1, WARN: 2, ERROR: 3, SILENT: 4 } as const;

/** `write` takes each line whole, its newline included; tests give their own. */
export const createTelemetry = (
  { serviceName, logLevel, metricsNamespace, coldStarts }: TelemetrySettings,
  write: (line: string) => void = (line) => process.stdout.write(line),
): Telemetry => {
  const threshold = SEVERITY[logLevel];
  // each published name's EMF directive, made once: a line only refers to it
  const directives = new Map<string, object>();
  for (const Name of published) {
    const Metrics = [{ Name, Unit: 'Count' }];
    directives.set(Name, { Namespace: metricsNamespace, Dimensions: [['service']], Metrics });
  }
  const emf = (now: number, metric: MetricName, countsColdStart: boolean) => {
    const names = countsColdStart ? [metric, 'ColdStart'] : [metric];
    const CloudWatchMetrics = names.flatMap((name) => directives.get(name) ?? []);
    return CloudWatchMetrics.length > 0 ? { Timestamp: now, CloudWatchMetrics } : undefined;
  };
  // the container's first invocation: its lines say cold_start, and the first counts ColdStart
  // (Lambda hands each invocation a context object of its own, and they may overlap)
  let firstInvocation: Invocation | undefined;
  let coldStartCounted = !coldStarts;
  return {
    start: (invocation) => {
      firstInvocation ??= invocation;
    },
    record: (invocation, { level, message, metric, fields }) => {
      firstInvocation ??= invocation;
      const coldStart = coldStarts && invocation === firstInvocation;
      const countsColdStart = coldStart && !coldStartCounted;
      if (coldStart) coldStartCounted = true;
      const now = Date.now();
      const _aws = emf(now, metric, countsColdStart);
      const below = SEVERITY[level] < threshold;
      // below the log level, a published count alone; an outcome counted only in the logs, nothing
      if (below && !_aws) return;
      const { functionName } = invocation;
      const document = below
        ? { service: serviceName, function_name: functionName, _aws, [metric]: 1 }
        : {
            level,
            message,
            timestamp: new Date(now).toISOString(),
            service: serviceName,
            cold_start: coldStart,
            function_name: functionName,
            function_request_id: invocation.awsRequestId,
            xray_trace_id: currentTraceId() ?? traceIdOf(invocation),
            ...fields,
            _aws,
            [metric]: 1,
          };
      if (countsColdStart) Object.assign(document, { ColdStart: 1 });
      write(`${JSON.stringify(document)}\n`);
    },
  };
};
