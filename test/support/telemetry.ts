// Telemetry for handlers under test: quiet by default, or recorded so a test can read the lines
// (each a log line and its EMF metric document) that the handler writes.
import { SERVICE_NAME } from '#lib/config/telemetry.ts';
import { createTelemetry, METRIC_NAMES, type Telemetry } from '#lib/telemetry.ts';

const counts = new Set<string>([...METRIC_NAMES, 'ColdStart']);

const settings = {
  serviceName: SERVICE_NAME,
  logLevel: 'DEBUG',
  metricsNamespace: 'PlantStoreTest',
  coldStarts: true,
} as const;

/** Every log level and every metric, written to stdout as deployed. */
export const loudTelemetry = (): Telemetry => createTelemetry(settings);

/** No lines at all. */
export const quietTelemetry = (): Telemetry => createTelemetry(settings, () => {});

export interface RecordedTelemetry extends Telemetry {
  /** Every JSON document written since the last `clear`. */
  documents: () => Record<string, unknown>[];
  /** The outcomes the lines count (each a field of its line, ColdStart too), in order. */
  metricNames: () => string[];
  /** The names of the CloudWatch metrics published (EMF), in order. */
  publishedMetricNames: () => string[];
  /** The raw text written, for searching. */
  text: () => string;
  clear: () => void;
}

/** Every log level, every metric, each line kept (and not shown). */
export const recordTelemetry = (): RecordedTelemetry => {
  let written: string[] = [];
  const documents = () =>
    written
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    ...createTelemetry(settings, (line) => {
      written.push(line);
    }),
    documents,
    metricNames: () =>
      documents().flatMap((doc) => Object.keys(doc).filter((key) => counts.has(key))),
    publishedMetricNames: () =>
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
  };
};
