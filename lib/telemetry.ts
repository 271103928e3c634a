// The one logger and the one metrics emitter per container (Powertools for AWS Lambda): JSON log
// lines and CloudWatch Embedded Metric Format, both written to stdout, where Lambda collects them.
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { TelemetrySettings } from '#lib/config/telemetry.ts';

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
