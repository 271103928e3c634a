// HTTP errors (Middy's HttpError: a status, a client-safe message, a cause) and the Error body.
import { createError, type HttpError } from '@middy/util';
import type { HttpResponse } from '#lib/http/types.ts';
import type { ErrorBody } from '#lib/plant.ts';

export interface HttpErrorOptions {
  cause?: unknown;
  headers?: Record<string, string>;
}

/** An error whose message is shown to the client: one sentence it can act on. */
export const httpError = (
  status: number,
  message: string,
  { cause, headers }: HttpErrorOptions = {},
) => {
  const error = createError(status, message, { cause, expose: true });
  if (headers) error.headers = headers;
  return error;
};

export const isHttpError = (error: unknown): error is HttpError =>
  error instanceof Error && typeof (error as HttpError).statusCode === 'number';

export const jsonResponse = (
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): HttpResponse => ({
  statusCode,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

export const errorResponse = (
  status: number,
  message: string,
  headers: Record<string, string> = {},
): HttpResponse => jsonResponse(status, { error: status, message } satisfies ErrorBody, headers);

/** How long a client should wait before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 1;

export const serviceUnavailable = (message: string, cause: unknown) =>
  httpError(503, message, { cause, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
