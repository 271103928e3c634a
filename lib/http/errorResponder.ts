// The last line of the pipeline: every error becomes an Error response, so the handler never
// throws (serverless-offline, for one, would answer a thrown error with 200).
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { errorResponse, isHttpError } from '#lib/http/errors.ts';
import type { HttpResponse } from '#lib/http/types.ts';

export interface ErrorLogger {
  error: (line: string) => void;
  warn: (line: string) => void;
}

export interface ErrorResponderOptions {
  logger?: ErrorLogger;
}

type ErrorMiddleware = MiddlewareObj<unknown, HttpResponse, unknown, Context>;

/** An error as a log can show it: name, message, stack and the chain of causes. */
const describe = (error: unknown): unknown => {
  if (!(error instanceof Error)) return error;
  const { name, message, stack, cause } = error;
  return { name, message, stack, ...(cause === undefined ? {} : { cause: describe(cause) }) };
};

export const errorResponder = ({
  logger = console,
}: ErrorResponderOptions = {}): ErrorMiddleware => {
  const errorResponderOnError: ErrorMiddleware['onError'] = (request) => {
    const { error } = request;
    const log = (level: 'warn' | 'error', status: number) =>
      logger[level](
        JSON.stringify({
          level,
          requestId: request.context?.awsRequestId,
          status,
          error: describe(error),
        }),
      );

    if (isHttpError(error) && error.expose) {
      // a 5xx that we chose to tell the client about (an outage): it gets the retry advice, the log the details
      if (error.statusCode >= 500) log('warn', error.statusCode);
      const headers = (error.headers ?? {}) as Record<string, string>;
      request.response = errorResponse(error.statusCode, error.message, headers);
      return;
    }
    log('error', 500);
    request.response = errorResponse(500, 'Internal server error');
  };
  return { onError: errorResponderOnError };
};
