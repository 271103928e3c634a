// Zod validation of what the route reads of the request: its JSON body, path parameters and query.
// The typed values become context.input, or a 400 names the field and says why.
import type * as z from 'zod/mini';
import { httpError } from '#lib/http/httpError.ts';
import type { JsonBodyOptions } from '#lib/http/jsonBody.ts';
import type { HttpEvent, RouteInput, Stage } from '#lib/http/types.ts';

/** A JSON body: the stage that parses it (lib/http/jsonBody.ts), its schema, and its media types. */
export interface RequestBody<Body> extends Pick<JsonBodyOptions, 'mediaTypes'> {
  schema: z.ZodMiniType<Body>;
  parser: Stage;
}

/** The schemas of what a route reads; undefined: it reads none of that. */
export interface InputSchemas<Body, Path, Query> {
  body?: RequestBody<Body> | undefined;
  path?: z.ZodMiniType<Path> | undefined;
  query?: z.ZodMiniType<Query> | undefined;
}

/** The query's parameters: a string if given once, else every value (so a schema can refuse it). */
export const queryParameters = (event: HttpEvent): Record<string, string | string[]> => {
  // HTTP API joins repeated values with commas in queryStringParameters: the raw query keeps them
  const query = new URLSearchParams(event.rawQueryString);
  const oneOrAll = (values: string[]) => (values.length === 1 ? (values[0] ?? '') : values);
  return Object.fromEntries(
    [...new Set(query.keys())].map((name) => [name, oneOrAll(query.getAll(name))]),
  );
};

const parseOrRefuse = <Value>(schema: z.ZodMiniType<Value> | undefined, value: unknown) => {
  const result = schema?.safeParse(value);
  if (!result || result.success) return result?.data;
  // the first problem, in the schema's own words: one actionable sentence
  throw httpError(400, result.error.issues[0]?.message ?? result.error.message, {
    metric: 'ValidationFailures',
    cause: result.error,
  });
};

export const validateInput = <Body, Path, Query>({
  body,
  path,
  query,
}: InputSchemas<Body, Path, Query>): Stage<RouteInput<Body, Path, Query>> => ({
  before: (request) => {
    const { event, context } = request;
    // the path and query first: they say what is addressed, the body what to do with it
    context.input = {
      path: parseOrRefuse(path, event.pathParameters ?? {}),
      query: parseOrRefuse(query, query && queryParameters(event)),
      body: parseOrRefuse(body?.schema, context.json),
    } as RouteInput<Body, Path, Query>;
  },
});
