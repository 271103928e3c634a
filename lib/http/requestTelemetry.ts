// One structured log line and one metric per request, written when the reply is known (the
// route's, or the error responder's): the route, status, latency, the caller once known, the
// route's outcome and log fields, and for a 5xx the error with its stack. Never the body, never
// the token.
import type { MiddlewareObj } from '@middy/core';
import { isErrorReply, type Reply } from '#lib/http/reply.ts';
import type { RouteContext } from '#lib/http/types.ts';
import { count, type Telemetry } from '#lib/telemetry.ts';

type TelemetryMiddleware = MiddlewareObj<unknown, Reply, unknown, RouteContext>;
type TelemetryRequest = Parameters<NonNullable<TelemetryMiddleware['before']>>[0];

const MAX_CAUSES = 5;

/** An error as the log shows it: name, message, stack and a bounded chain of causes. */
const describeError = (error: unknown, depth = 0): unknown => {
  if (!(error instanceof Error)) return String(error);
  const { name, message, stack, cause } = error;
  const more = cause !== undefined && depth < MAX_CAUSES;
  return { name, message, stack, ...(more ? { cause: describeError(cause, depth + 1) } : {}) };
};

export const requestTelemetry = (
  { logger, metrics }: Telemetry,
  route: string,
): TelemetryMiddleware => {
  const startedAt = new WeakMap<TelemetryRequest, number>();

  const requestTelemetryAfter = (request: TelemetryRequest) => {
    // the error responder runs first, so there is always a reply; none would be a bug of ours
    const reply: Reply = request.response ?? {
      status: 500,
      message: 'no reply',
      metric: 'InternalErrors',
    };
    const { caller } = request.context;
    const fields = {
      route,
      status: reply.status,
      latencyMs: Math.round((performance.now() - (startedAt.get(request) ?? 0)) * 10) / 10,
      ...reply.log,
      ...(caller ? { callerSub: caller.sub } : {}),
      ...(reply.outcome ? { outcome: reply.outcome } : {}),
    };
    count(metrics, reply.metric);

    try {
      if (!isErrorReply(reply)) logger.info('request', fields);
      else if (reply.status < 500)
        logger.info('request refused', { ...fields, reason: reply.message });
      else {
        const details = { ...fields, error: describeError(reply.cause) };
        if (reply.status === 500) logger.error('request failed', details);
        else logger.warn('request failed', details);
      }
    } catch {
      // an error that cannot be written must not turn the answer into a crash: log without it
      logger.error('request failed; its error could not be logged', fields);
    }
  };

  return {
    before: (request) => {
      startedAt.set(request, performance.now());
    },
    after: requestTelemetryAfter,
    onError: requestTelemetryAfter,
  };
};
