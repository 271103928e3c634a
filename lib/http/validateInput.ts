// Zod validation of what the route reads of the request (its body, for now): the typed values
// become context.input, or a 400 says which field and why.
import type { MiddlewareObj } from '@middy/core';
import type * as z from 'zod/mini';
import { httpError } from '#lib/http/httpError.ts';
import { METRICS } from '#lib/http/metrics.ts';
import type { HttpEvent, RouteContext } from '#lib/http/types.ts';

export interface InputSchemas<Body> {
  body?: { schema: z.ZodMiniType<Body>; describedAs: string };
}

export interface RouteInput<Body> {
  body: Body;
}

const refuse = (error: z.core.$ZodError, fallback: string) =>
  // the first problem, in the schema's own words: one actionable sentence
  httpError(400, error.issues[0]?.message ?? fallback, {
    metric: METRICS.validationFailures,
    cause: error,
  });

export const validateInput = <Body>({
  body,
}: InputSchemas<Body>): MiddlewareObj<
  HttpEvent,
  unknown,
  Error,
  RouteContext<RouteInput<Body>>
> => ({
  before: (request) => {
    const { json } = request.context;
    let value: unknown;
    if (body && json) {
      // a number JSON.parse rounded to a whole one stands as its source text, which the schema
      // refuses in its own words
      value =
        json.inexactIntegers.size > 0
          ? { ...(json.value as object), ...Object.fromEntries(json.inexactIntegers) }
          : json.value;
      const result = body.schema.safeParse(value);
      if (!result.success) throw refuse(result.error, `Request body is not ${body.describedAs}`);
      value = result.data;
    }
    request.context.input = { body: value as Body };
  },
});
