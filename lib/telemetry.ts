// The one logger and the one metrics emitter per container (Powertools for AWS Lambda): JSON log
// lines and CloudWatch Embedded Metric Format, both written to stdout, where Lambda collects them.
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
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
  // the plant added webhook
  'WebhooksDelivered',
  'WebhookAttemptsFailed',
  'WebhooksDeadLettered',
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

export interface Telemetry {
  logger: Logger;
  metrics: Metrics;
}

export const createTelemetry = ({
  serviceName,
  logLevel,
  metricsNamespace,
}: TelemetrySettings): Telemetry => ({
  logger: new Logger({ serviceName, logLevel }),
  metrics: new Metrics({ serviceName, namespace: metricsNamespace }),
});

/** One more of `name`. */
export const count = (metrics: Metrics, name: MetricName) =>
  metrics.addMetric(name, MetricUnit.Count, 1);
