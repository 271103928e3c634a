// What the logs and metrics are called and how much is logged.
import type { Variables } from './load.ts';

/** The service's name in logs and metric dimensions, as serverless.yml names it. */
export const SERVICE_NAME = 'plant-store';

/** The metrics' namespace unless METRICS_NAMESPACE says otherwise. */
export const DEFAULT_METRICS_NAMESPACE = 'PlantStore';

export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'] as const;

export type TelemetrySettings = ReturnType<typeof telemetrySettings>;

export const telemetrySettings = (read: Variables) => ({
  serviceName: SERVICE_NAME as string,
  logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'INFO'),
  metricsNamespace: read.optional('METRICS_NAMESPACE') ?? DEFAULT_METRICS_NAMESPACE,
  // whether a container's first invocation is a cold start: not when Lambda made it in advance
  // (provisioned concurrency, in Lambda's own word)
  coldStarts: read.optional('AWS_LAMBDA_INITIALIZATION_TYPE') !== 'provisioned-concurrency',
});

/** The function that answers every request no route matches: its telemetry only. */
export const unmatchedRouteSettings = { telemetry: telemetrySettings };
