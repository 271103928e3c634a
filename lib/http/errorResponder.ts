// Every error becomes an Error reply, so the handler never throws (serverless-offline, for one,
// would answer a thrown error with 200). What the client may see is decided here: the message of an
// error a stage meant for the client, else "Internal server error"; the error itself goes to the
// log with the reply.
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { isRouteError } from '#lib/http/httpError.ts';
import type { ErrorReply, Reply } from '#lib/http/reply.ts';

/** All a client learns of a fault of ours. */
export const INTERNAL_ERROR = 'Internal server error';

export const errorReply = (error: unknown): ErrorReply =>
  isRouteError(error)
    ? {
        status: error.statusCode,
        message: error.message,
        metric: error.metric,
        cause: error,
        ...(error.headers ? { headers: error.headers } : {}),
      }
    : {
        status: 500,
        message: INTERNAL_ERROR,
        metric: 'InternalErrors',
        cause: error,
      };

export const errorResponder = (): MiddlewareObj<unknown, Reply, unknown, Context> => ({
  onError: (request) => {
    request.response = errorReply(request.error);
  },
});
