// Telemetry for handlers under test: quiet by default, or recorded so a test can read the log
// lines and the EMF metric documents that the handler writes to stdout.
import { vi } from 'vitest';
import { SERVICE_NAME } from '#lib/config/telemetry.ts';
import { createTelemetry, type Telemetry } from '#lib/telemetry.ts';

/** No log lines; no metrics (vitest.config.ts sets POWERTOOLS_METRICS_DISABLED). */
export const quietTelemetry = (): Telemetry =>
  createTelemetry({
    serviceName: SERVICE_NAME,
    logLevel: 'SILENT',
    metricsNamespace: 'PlantStoreTest',
  });

export interface RecordedTelemetry extends Telemetry {
  /** Every JSON document written since the last `clear`: log lines and EMF metrics. */
  documents: () => Record<string, unknown>[];
  /** The names of the EMF metrics written, in order. */
  metricNames: () => string[];
  /** The raw text written to stdout and stderr, for searching. */
  text: () => string;
  clear: () => void;
  stop: () => void;
}

/** Real Powertools telemetry: every log level, and metrics on. */
export const loudTelemetry = (): Telemetry => {
  const previous = process.env.POWERTOOLS_METRICS_DISABLED;
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  try {
    return createTelemetry({
      serviceName: SERVICE_NAME,
      logLevel: 'DEBUG',
      metricsNamespace: 'PlantStoreTest',
    });
  } finally {
    if (previous === undefined) delete process.env.POWERTOOLS_METRICS_DISABLED;
    else process.env.POWERTOOLS_METRICS_DISABLED = previous;
  }
};

/** Loud telemetry with its output captured (and not shown). */
export const recordTelemetry = (): RecordedTelemetry => {
  const telemetry = loudTelemetry();

  let written: string[] = [];
  // Powertools writes info and debug to stdout, warn and error to stderr
  const spies = [process.stdout, process.stderr].map((stream) =>
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }),
  );
  const documents = () =>
    written
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    ...telemetry,
    documents,
    metricNames: () =>
      documents()
        .flatMap(
          (doc) =>
            (doc._aws as { CloudWatchMetrics: { Metrics: { Name: string }[] }[] } | undefined)
              ?.CloudWatchMetrics ?? [],
        )
        .flatMap((directive) => directive.Metrics.map((metric) => metric.Name)),
    text: () => written.join(''),
    clear: () => {
      written = [];
    },
    stop: () => {
      for (const spy of spies) spy.mockRestore();
    },
  };
};
