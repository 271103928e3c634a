// Errors the pipeline's stages throw: Middy's HttpError (a status, a client-safe message, a cause)
// with the response headers it needs and the metric the request counts toward.
import { createError, type HttpError } from '@middy/util';
import type { MetricName } from '#lib/telemetry.ts';

export interface RouteError extends HttpError {
  metric: MetricName;
  headers?: Record<string, string> | undefined;
}

/** An error whose message is shown to the client: one sentence it can act on. */
export const httpError = (
  status: number,
  message: string,
  { metric, cause, headers }: Pick<RouteError, 'metric' | 'headers'> & { cause?: unknown },
): RouteError =>
  Object.assign(createError(status, message, { cause, expose: true }), { metric, headers });

export const isRouteError = (error: unknown): error is RouteError =>
  error instanceof Error &&
  typeof (error as RouteError).statusCode === 'number' &&
  typeof (error as RouteError).metric === 'string' &&
  (error as RouteError).expose === true;

/** How long a client should wait before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 1;
export const retryAfterIn = (seconds: number) => ({ 'Retry-After': String(seconds) });
export const retryAfter = retryAfterIn(RETRY_AFTER_SECONDS);
