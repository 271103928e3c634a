// Every error becomes an Error response, so the handler never throws (serverless-offline, for one,
// would answer a thrown error with 200). What the client may see is decided here; what the log
// keeps (the error and its stack) is written by the request telemetry afterwards.
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { isHttpError } from '#lib/http/httpError.ts';
import { errorResponse } from '#lib/http/responses.ts';
import type { HttpResponse } from '#lib/http/types.ts';

type ErrorMiddleware = MiddlewareObj<unknown, HttpResponse, unknown, Context>;

export const errorResponder = (): ErrorMiddleware => {
  const errorResponderOnError: ErrorMiddleware['onError'] = (request) => {
    const { error } = request;
    if (isHttpError(error) && error.expose) {
      const headers = (error.headers ?? {}) as Record<string, string>;
      request.response = errorResponse(error.statusCode, error.message, headers);
      return;
    }
    request.response = errorResponse(500, 'Internal server error');
  };
  return { onError: errorResponderOnError };
};
