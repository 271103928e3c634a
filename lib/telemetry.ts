// The service's telemetry: one JSON line per request or delivery attempt, in one write to stdout
// (where Lambda collects it), that is both the log line and the CloudWatch Embedded Metric Format
// document counting its outcome (CloudWatch reads the count from the line's `_aws` block). The keys
// are Powertools Logger's; written here because Powertools writes a log line and a metric document
// apart, two writes and two serializations: measured, those cost more than the rest of a webhook
// delivery's own work over its floor (README, Performance).
import type { Context } from 'aws-lambda';
import type { TelemetrySettings } from '#lib/config/telemetry.ts';

/**
 * Every metric the service counts, each once per request or delivery attempt: its name says what
 * it counts. The README's Observability section lists them (test/unit/telemetry.test.ts checks).
 */
export const METRIC_NAMES = [
  // a request's outcome: one of these per request
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
  // a caller's own webhook endpoints
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
  // the 429 of a ping or resend past the endpoint's most per minute
  'EndpointSendsLimited',
  // the 503 of a ping or resend whose delivery the queue did not take
  'DeliveryQueueUnavailable',
  // the 503 of a registration whose url's host could not be resolved just now
  'ResolverUnavailable',
  // the plant added webhook: one of the first three per attempt
  'WebhooksDelivered',
  'WebhookAttemptsFailed',
  'WebhooksDeadLettered',
  // a batch item failure (the stream or queue offers it again); a stream record sent whole to the
  // stream-dead-letters queue
  'WebhookEventsHandedBack',
  'StreamRecordsSetAside',
  // deliveries to callers' own endpoints: an event queued for its owner's endpoints, then per attempt one of delivered, failed (it waits) or exhausted (the schedule is
  // used up); one not attempted, its endpoint deleted or disabled; an endpoint disabled
  'EndpointEventsQueued',
  'EndpointEventsDelivered',
  'EndpointAttemptsFailed',
  'EndpointEventsExhausted',
  'EndpointEventsDropped',
  'EndpointsDisabled',
] as const;

export type MetricName = (typeof METRIC_NAMES)[number];

/** The Lambda invocation a line belongs to. */
export type Invocation = Pick<Context, 'functionName' | 'awsRequestId'>;

/** The keys every line writes itself: no field may take one (it would hide the line's own). */
type LineKey =
  | 'level'
  | 'message'
  | 'timestamp'
  | 'service'
  | 'cold_start'
  | 'function_name'
  | 'function_request_id'
  | '_aws'
  | 'ColdStart'
  | MetricName;

/**
 * What a line says besides its own keys; plain data (an Error as its fields: see describeError).
 * The type refuses a line key in an object written out or typed as this, not in a value typed
 * `Record<string, unknown>`: pass fields on with this type.
 */
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
  /** Writes `entry` as one line of `invocation`. */
  record: (invocation: Invocation, entry: LogEntry) => void;
}

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

const SEVERITY = { DEBUG: 0, INFO: 1, WARN: 2, ERROR: 3, SILENT: 4 } as const;

const writeToStdout = (line: string) => {
  process.stdout.write(line);
};

/** `write` takes each line whole, its newline included; tests give their own. */
export const createTelemetry = (
  { serviceName, logLevel, metricsNamespace, coldStarts }: TelemetrySettings,
  write: (line: string) => void = writeToStdout,
): Telemetry => {
  const threshold = SEVERITY[logLevel];
  const counted = (name: string, dimensions: string[]) => ({
    Namespace: metricsNamespace,
    Dimensions: [dimensions],
    Metrics: [{ Name: name, Unit: 'Count' }],
  });
  // the container's first invocation: its lines say cold_start, and the first counts ColdStart
  // (Lambda hands each invocation a context object of its own, and they may overlap)
  let firstInvocation: Invocation | undefined;
  let coldStartCounted = !coldStarts;
  return {
    start: (invocation) => {
      firstInvocation ??= invocation;
    },
    record: (invocation, { level, message, metric, fields }) => {
      const { functionName, awsRequestId } = invocation;
      firstInvocation ??= invocation;
      const coldStart = coldStarts && invocation === firstInvocation;
      const countsColdStart = coldStart && !coldStartCounted;
      if (coldStart) coldStartCounted = true;
      const now = Date.now();
      const metrics = {
        _aws: {
          Timestamp: now,
          CloudWatchMetrics: [
            counted(metric, ['service']),
            ...(countsColdStart ? [counted('ColdStart', ['service', 'function_name'])] : []),
          ],
        },
        [metric]: 1,
        ...(countsColdStart ? { ColdStart: 1 } : {}),
      };
      // below the log level, the count alone
      const document =
        SEVERITY[level] < threshold
          ? { service: serviceName, function_name: functionName, ...metrics }
          : {
              level,
              message,
              timestamp: new Date(now).toISOString(),
              service: serviceName,
              cold_start: coldStart,
              function_name: functionName,
              function_request_id: awsRequestId,
              ...fields,
              ...metrics,
            };
      write(`${JSON.stringify(document)}\n`);
    },
  };
};
