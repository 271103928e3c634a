// What the document's responses share: the headers on every answer (docs/api.md: no caching, no
// content sniffing), the reusable headers, and a success's shape.
import type * as z from 'zod/mini';
import { RETRY_AFTER_SECONDS } from '#lib/http/httpError.ts';
import { headerRef, type Json, schemaRef } from './schemas.ts';

export type Examples = Record<string, [summary: string, value: unknown]>;

/** Examples as OpenAPI writes them, each value as `shown` makes it. */
export const examplesOf = <T>(
  examples: Record<string, [string, T]>,
  shown = (v: T): unknown => v,
) =>
  Object.fromEntries(
    Object.entries(examples).map(([name, [summary, v]]) => [name, { summary, value: shown(v) }]),
  );

export const commonHeaders = {
  'Cache-Control': headerRef('CacheControl'),
  'X-Content-Type-Options': headerRef('XContentTypeOptions'),
};

/** A success with a JSON body: its schema, description, named examples and headers. */
export const jsonSuccess = (
  description: string,
  schema: z.ZodMiniType,
  examples: Examples,
  headers: Json = {},
) => ({
  description,
  headers: { ...headers, ...commonHeaders },
  content: { 'application/json': { schema: schemaRef(schema), examples: examplesOf(examples) } },
});

/** A response header: what it says, its schema, its example if any, whether it is always sent. */
export const header = (description: string, schema: Json, example?: unknown, required = true) => ({
  description,
  required,
  schema,
  ...(example === undefined ? {} : { example }),
});

/** The `Link` header of a page that is not the last (RFC 8288). */
export const nextPageLink = (description: string, example?: string) => ({
  Link: header(description, { type: 'string', pattern: '^<[^>]+>; rel="next"$' }, example, false),
});

/** When to retry: on each answer that asks the client to wait (a 503, a 429). */
export const retryAfterHeader = { 'Retry-After': headerRef('RetryAfter') };

/** The plant's version, on each answer that holds a plant it read or wrote. */
export const etagHeader = { ETag: headerRef('ETag') };

/** A header a request carries, as a parameter. */
export const headerParameter = (
  name: string,
  description: string,
  schema: Json,
  example: string,
  required = true,
) => ({ name, in: 'header', required, description, schema, example });

/** The header of a conditional update (PUT and PATCH): the version the change was made against. */
export const ifMatchParameter = headerParameter(
  'If-Match',
  'The `ETag` of the plant as read (strong comparison, RFC 9110), several separated by commas, or `*` for any version. A weak tag never matches.',
  { type: 'string' },
  '"1"',
  false,
);

export const componentHeaders = {
  CacheControl: header('`no-store`: no response may be cached.', {
    type: 'string',
    const: 'no-store',
  }),
  XContentTypeOptions: header(
    '`nosniff`: clients must not guess another media type than the declared one.',
    { type: 'string', const: 'nosniff' },
  ),
  RetryAfter: header(
    'Seconds to wait before retrying.',
    { type: 'integer', minimum: 0 },
    RETRY_AFTER_SECONDS,
  ),
  ETag: header(
    "The plant's version as a strong entity tag (RFC 9110): send it back in `If-Match` to update only that version.",
    { type: 'string', pattern: '^"[1-9][0-9]*"$' },
    '"1"',
  ),
};
