// Zod validation of the parsed body: the typed value replaces the body, or 400 says which field and why.
import type { MiddlewareObj } from '@middy/core';
import type * as z from 'zod/mini';
import { httpError } from '#lib/http/httpError.ts';
import type { HttpEvent } from '#lib/http/types.ts';

export const validateBody = <Schema extends z.ZodMiniType>(
  schema: Schema,
): MiddlewareObj<HttpEvent> => {
  const validateBodyBefore: NonNullable<MiddlewareObj<HttpEvent>['before']> = (request) => {
    const result = schema.safeParse(request.event.body);
    if (!result.success) {
      // the first problem, in the schema's own words; one actionable sentence
      const message = result.error.issues[0]?.message ?? 'Request body is not a valid NewPlant';
      throw httpError(400, message, { cause: result.error });
    }
    request.event.body = result.data;
  };
  return { before: validateBodyBefore };
};
