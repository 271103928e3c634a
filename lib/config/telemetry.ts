// What the logs and metrics are called and how much is logged.
import * as z from 'zod/mini';
import { defineSettings } from './load.ts';

/** The service's name in logs and metric dimensions, as serverless.yml names it. */
export const SERVICE_NAME = 'plant-store';

export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'] as const;

export interface TelemetrySettings {
  serviceName: string;
  logLevel: (typeof LOG_LEVELS)[number];
  metricsNamespace: string;
}

export const telemetrySettings = defineSettings(
  z.object({
    LOG_LEVEL: z._default(
      z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }),
      'INFO',
    ),
    METRICS_NAMESPACE: z._default(
      z.string().check(z.trim(), z.minLength(1, 'must not be blank: leave it unset instead')),
      'PlantStore',
    ),
  }),
  (env): TelemetrySettings => ({
    serviceName: SERVICE_NAME,
    logLevel: env.LOG_LEVEL,
    metricsNamespace: env.METRICS_NAMESPACE,
  }),
);
