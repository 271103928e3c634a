// API Gateway responses with a JSON body: the Plant on success, the Error object otherwise.
import type { HttpResponse } from '#lib/http/types.ts';
import type { ErrorBody } from '#lib/plant.ts';

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
