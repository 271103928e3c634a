// One structured log line and one metric per request, written when the answer is known (after
// the error responder): the route, status, latency, the plant id and the caller once known, and
// for a 5xx the error with its stack. Never the body, never the token.
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MiddlewareObj } from '@middy/core';
import type { HttpEvent, HttpResponse, TelemetryContext } from '#lib/http/types.ts';
import type { Telemetry } from '#lib/telemetry.ts';

type TelemetryMiddleware = MiddlewareObj<HttpEvent, HttpResponse, Error, TelemetryContext>;
type TelemetryRequest = Parameters<NonNullable<TelemetryMiddleware['before']>>[0];

export interface RequestTelemetryOptions extends Telemetry {
  route: string;
}

/** The metric each answer counts toward (all counts, in the configured namespace). */
export const metricNameFor = (status: number, context: TelemetryContext): string => {
  if (status === 200) return context.plantOutcome === 'replayed' ? 'PlantReplays' : 'PlantsCreated';
  if (status === 409) return 'PlantConflicts';
  if (status === 401 || status === 403) return 'AuthFailures';
  if (status === 400 || status === 413 || status === 415) return 'ValidationFailures';
  // before the caller is known, a 503 can only be the key set; after it, the store (or time)
  if (status === 503) return context.caller ? 'StoreUnavailable' : 'KeySetUnavailable';
  return 'InternalErrors';
};

const MAX_CAUSES = 5;

/** An error as the log shows it: name, message, stack and a bounded chain of causes. */
const describeError = (error: unknown, depth = 0): unknown => {
  if (!(error instanceof Error)) return String(error);
  const { name, message, stack, cause } = error;
  const more = cause !== undefined && depth < MAX_CAUSES;
  return { name, message, stack, ...(more ? { cause: describeError(cause, depth + 1) } : {}) };
};

/** The client-safe sentence of an Error body, to say in the log why a request was refused. */
const reasonOf = (response: HttpResponse | null | undefined): string | undefined => {
  try {
    const { message } = JSON.parse(response?.body ?? '{}') as { message?: unknown };
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
};

export const requestTelemetry = ({
  logger,
  metrics,
  route,
}: RequestTelemetryOptions): TelemetryMiddleware => {
  const startedAt = new WeakMap<TelemetryRequest, number>();

  const requestTelemetryBefore = (request: TelemetryRequest) => {
    startedAt.set(request, performance.now());
  };

  const requestTelemetryAfter = (request: TelemetryRequest) => {
    const status = request.response?.statusCode ?? 500;
    const { context } = request;
    const fields = {
      route,
      status,
      latencyMs: Math.round((performance.now() - (startedAt.get(request) ?? 0)) * 10) / 10,
      // only once the store has seen the plant: before that the body is unvalidated client input
      ...(context.plantOutcome ? { plantId: (request.event.body as { id: number }).id } : {}),
      ...(context.caller ? { callerSub: context.caller.sub } : {}),
      ...(context.plantOutcome ? { outcome: context.plantOutcome } : {}),
    };
    metrics.addMetric(metricNameFor(status, context), MetricUnit.Count, 1);

    try {
      if (status >= 500) {
        const details = { ...fields, error: describeError(request.error) };
        if (status === 500) logger.error('request failed', details);
        else logger.warn('request failed', details);
      } else if (status >= 400) {
        logger.info('request refused', { ...fields, reason: reasonOf(request.response) });
      } else logger.info('request', fields);
    } catch {
      // an error that cannot be written must not turn the answer into a crash: log without it
      logger.error('request failed; its error could not be logged', fields);
    }
  };

  return {
    before: requestTelemetryBefore,
    after: requestTelemetryAfter,
    onError: requestTelemetryAfter,
  };
};
