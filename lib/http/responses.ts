// API Gateway responses with a JSON body: the Plant on success, the Error object otherwise.
import type { HttpResponse } from '#lib/http/types.ts';
import type { ErrorBody } from '#lib/plant.ts';

export const jsonResponse = (
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): HttpResponse => ({
  statusCode,
  headers: {
    'Content-Type': 'application/json',
    // plants and errors are per caller: no shared cache keeps them, no browser sniffs them
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  },
  body: JSON.stringify(body),
});

export const errorResponse = (
  status: number,
  message: string,
  headers: Record<string, string> = {},
): HttpResponse => jsonResponse(status, { error: status, message } satisfies ErrorBody, headers);
