// What a route answers: status, body and headers, and what the request's log line and metric say.
import type { ErrorBody } from '#lib/http/errorBody.ts';
import { retryAfter } from '#lib/http/httpError.ts';
import type { HttpResponse } from '#lib/http/types.ts';
import type { LineFields, MetricName } from '#lib/telemetry.ts';

interface ReplyBase {
  status: number;
  headers?: Record<string, string> | undefined;
  /** The metric the request counts toward (one count per request). */
  metric: MetricName;
  /** What the route did, in its own words, for the log: created, replayed, notFound, ... */
  outcome?: string;
  /** More log fields the route knows once it ran (never client input it has not validated). */
  log?: LineFields | undefined;
}

export interface SuccessReply extends ReplyBase {
  /** The JSON body; none (as for 204) when undefined. */
  body?: unknown;
}

export interface ErrorReply extends ReplyBase {
  /** The Error body's message: one sentence the client can act on. */
  message: string;
  /** For the log of a 5xx: the error behind it. */
  cause?: unknown;
}

export type Reply = SuccessReply | ErrorReply;

export const isErrorReply = (reply: Reply): reply is ErrorReply => 'message' in reply;

/** Our outage, not the caller's fault: 503, and when to retry. */
export const unavailable = (
  message: string,
  { metric, cause, ...rest }: Omit<ErrorReply, 'status' | 'message'>,
): ErrorReply => ({ status: 503, message, metric, cause, ...rest, headers: retryAfter });

/** A thing that is not there, or not the caller's: both answered alike; only the log tells. */
export const notFound = (message: string, metric: MetricName, log: LineFields): ErrorReply => ({
  status: 404,
  message,
  metric,
  outcome: 'notFound',
  log,
});

/** The 503 of a store busy or unreachable after its client's bounded retries, saying `message`. */
export const storeOutage =
  (message: string) =>
  (cause: unknown, log?: LineFields): ErrorReply =>
    unavailable(message, { metric: 'StoreUnavailable', outcome: 'unavailable', cause, log });

// per caller: no shared cache keeps them, no browser sniffs them
const protectiveHeaders = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

/** The reply as API Gateway sends it: an Error body for an error, else its JSON body if any. */
export const toHttpResponse = (reply: Reply): HttpResponse => {
  const body = isErrorReply(reply)
    ? ({ error: reply.status, message: reply.message } satisfies ErrorBody)
    : reply.body;
  const statusCode = reply.status;
  if (body === undefined)
    return { statusCode, headers: { ...protectiveHeaders, ...reply.headers } };
  const headers = { 'Content-Type': 'application/json', ...protectiveHeaders, ...reply.headers };
  return { statusCode, headers, body: JSON.stringify(body) };
};
