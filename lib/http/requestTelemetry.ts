// One log line and one metric per request, once the reply is known: route, status, latency, caller,
// the route's outcome and log fields, for a 5xx the error. Never the body, never the token.
import type { MiddlewareObj } from '@middy/core';
import { isErrorReply, type Reply } from '#lib/http/reply.ts';
import type { RouteContext } from '#lib/http/types.ts';
import { describeError, type LogEntry, type Telemetry } from '#lib/telemetry.ts';

type TelemetryMiddleware = MiddlewareObj<unknown, Reply, unknown, RouteContext>;
type TelemetryRequest = Parameters<NonNullable<TelemetryMiddleware['before']>>[0];

const NO_REPLY: Reply = { status: 500, message: 'no reply', metric: 'InternalErrors' };

export const requestTelemetry = (
  { start, record }: Telemetry,
  route: string,
): TelemetryMiddleware => {
  const startedAt = new WeakMap<TelemetryRequest, number>();

  const requestTelemetryAfter = (request: TelemetryRequest) => {
    // the error responder runs first, so there is always a reply; none would be a bug of ours
    const reply = request.response ?? NO_REPLY;
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
      // what cannot be written must not turn the answer into a crash: the line without it
      record(request.context, {
        level: 'ERROR',
        message: 'request failed; its line could not be written whole',
        metric,
        fields: { route, status: reply.status, latencyMs: fields.latencyMs },
      });
    }
  };

  return {
    before: (request) => {
      startedAt.set(request, performance.now());
      start(request.context);
    },
    after: requestTelemetryAfter,
    onError: requestTelemetryAfter,
  };
};
