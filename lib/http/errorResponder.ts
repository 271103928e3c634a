// Every error becomes an Error reply, so the handler never throws (serverless-offline would answer
// 200): the client sees a message meant for it, else "Internal server error"; the log gets the error.
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { isRouteError } from '#lib/http/httpError.ts';
import type { Reply } from '#lib/http/reply.ts';

export const INTERNAL_ERROR = 'Internal server error';

export const errorResponder = (): MiddlewareObj<unknown, Reply, unknown, Context> => ({
  onError: (request) => {
    const { error } = request;
    request.response = isRouteError(error)
      ? {
          status: error.statusCode,
          message: error.message,
          metric: error.metric,
          cause: error,
          headers: error.headers,
        }
      : { status: 500, message: INTERNAL_ERROR, metric: 'InternalErrors', cause: error };
  },
});
