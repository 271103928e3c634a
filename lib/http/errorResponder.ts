// The last line of the pipeline: every error becomes an Error response, so the handler never
// throws (serverless-offline, for one, would answer a thrown error with 200).
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { isHttpError } from '#lib/http/httpError.ts';
import { errorResponse } from '#lib/http/responses.ts';
import type { HttpResponse } from '#lib/http/types.ts';

type ErrorMiddleware = MiddlewareObj<unknown, HttpResponse, unknown, Context>;

const MAX_CAUSES = 5;

/** An error as a log can show it: name, message, stack and a bounded chain of causes. */
const describe = (error: unknown, depth = 0): unknown => {
  if (!(error instanceof Error)) return String(error);
  const { name, message, stack, cause } = error;
  const described: Record<string, unknown> = { name, message, stack };
  if (cause !== undefined && depth < MAX_CAUSES) described.cause = describe(cause, depth + 1);
  return described;
};

/** Logging must never turn an answer into a crash: an unloggable error is logged by name. */
const logLine = (fields: Record<string, unknown>, error: unknown) => {
  try {
    return JSON.stringify({ ...fields, error: describe(error) });
  } catch {
    return JSON.stringify({ ...fields, error: { name: (error as Error)?.name ?? typeof error } });
  }
};

export const errorResponder = (): ErrorMiddleware => {
  const errorResponderOnError: ErrorMiddleware['onError'] = (request) => {
    const { error } = request;
    const requestId = request.context?.awsRequestId;

    if (isHttpError(error) && error.expose) {
      const headers = (error.headers ?? {}) as Record<string, string>;
      request.response = errorResponse(error.statusCode, error.message, headers);
      // a 5xx we chose to tell the client about (an outage): it gets the retry advice, the log the details
      if (error.statusCode >= 500) {
        console.warn(logLine({ level: 'warn', requestId, status: error.statusCode }, error));
      }
      return;
    }
    request.response = errorResponse(500, 'Internal server error');
    console.error(logLine({ level: 'error', requestId, status: 500 }, error));
  };
  return { onError: errorResponderOnError };
};
