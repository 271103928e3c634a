// One structured log line and one metric per request, written when the reply is known (the
// route's, or the error responder's): the route, status, latency, the caller once known, the
// route's outcome and log fields, and for a 5xx the error with its stack. Never the body, never
// the token.
import type { MiddlewareObj } from '@middy/core';
import { isErrorReply, type Reply } from '#lib/http/reply.ts';
import type { RouteContext } from '#lib/http/types.ts';
import type { LogEntry, Telemetry } from '#lib/telemetry.ts';

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

export const requestTelemetry = ({ record }: Telemetry, route: string): TelemetryMiddleware => {
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
    const { metric } = reply;
    const entry = (): LogEntry => {
      if (!isErrorReply(reply)) return { level: 'INFO', message: 'request', metric, fields };
      if (reply.status < 500) {
        const refused = { ...fields, reason: reply.message };
        return { level: 'INFO', message: 'request refused', metric, fields: refused };
      }
      const failed = { ...fields, error: describeError(reply.cause) };
      const level = reply.status === 500 ? 'ERROR' : 'WARN';
      return { level, message: 'request failed', metric, fields: failed };
    };
    try {
      record(request.context, entry());
    } catch {
      // an error that cannot be written must not turn the answer into a crash: log without it
      const message = 'request failed; its error could not be logged';
      record(request.context, { level: 'ERROR', message, metric, fields });
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
