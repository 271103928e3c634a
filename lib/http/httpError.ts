// HTTP errors: Middy's HttpError (a status, a client-safe message, a cause), plus response headers.
import { createError, type HttpError } from '@middy/util';

export interface HttpErrorOptions {
  cause?: unknown;
  headers?: Record<string, string>;
}

/** An error whose message is shown to the client: one sentence it can act on. */
export const httpError = (
  status: number,
  message: string,
  { cause, headers }: HttpErrorOptions = {},
): HttpError => {
  const error = createError(status, message, { cause, expose: true });
  if (headers) error.headers = headers;
  return error;
};

export const isHttpError = (error: unknown): error is HttpError =>
  error instanceof Error && typeof (error as HttpError).statusCode === 'number';

/** How long a client should wait before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 1;

/** Our outage, not the caller's fault: 503, and when to retry. */
export const serviceUnavailable = (message: string, cause?: unknown) =>
  httpError(503, message, { cause, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
