// What every operation of the document shares: references, JSON Schema from Zod, the headers of
// every answer, and API.md's error statuses with the messages the service sends.
import * as z from 'zod/mini';
import { RETRY_AFTER_SECONDS } from '#lib/http/httpError.ts';
import { DEFAULT_MAX_BODY_BYTES, MAX_NESTING } from '#lib/http/jsonBody.ts';
import { REALM } from '#lib/routes/plantsApi.ts';

export type Json = Record<string, unknown>;

/** One operation of the document: where it is, and its OpenAPI Operation Object. */
export interface OperationEntry {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  operation: Json;
}

/**
 * A schema as OpenAPI 3.1 embeds it (JSON Schema 2020-12, its default dialect). A request body is
 * what a client may send: Zod's input view, where an object allows other properties (they are
 * ignored). A response is what the service sends: Zod's output view, where an object has exactly
 * its declared properties (`additionalProperties: false`).
 */
export const jsonSchema = (schema: z.ZodMiniType, io: 'input' | 'output'): Json => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12' });
  return rest;
};

export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

export const challenge = `Bearer realm="${REALM}"`;

/** Headers on every response (API.md: no caching, no content sniffing). */
export const commonHeaders = {
  'Cache-Control': headerRef('CacheControl'),
  'X-Content-Type-Options': headerRef('XContentTypeOptions'),
};

/** A success with a JSON body: its schema, description, named examples and headers. */
export const jsonSuccess = (
  description: string,
  schema: Json,
  examples: Record<string, { summary: string; value: unknown }>,
  headers: Json = {},
) => ({
  description,
  headers: { ...headers, ...commonHeaders },
  content: { 'application/json': { schema, examples } },
});

interface ErrorStatus {
  description: string;
  /** Named example bodies: an Error with this status and a message the service sends. */
  examples: Record<string, { summary: string; message: string }>;
  headers?: Json;
}

/** A route's own wording of a status: what it means there, and what the service says. */
export type ErrorOverrides = Partial<Record<number, ErrorStatus>>;

const bodyRefusals = `the body is missing or empty, not valid JSON, not a JSON object, nests objects and arrays more than ${MAX_NESTING} levels deep, holds a key that attempts prototype pollution (\`__proto__\`, \`constructor.prototype\`), or breaks a field rule`;

/** API.md's error statuses as every route means them; a route may word one its own way. */
const errorStatuses: Record<number, ErrorStatus> = {
  400: {
    description: `The request is not valid: ${bodyRefusals}. The message names the field and why.`,
    examples: {
      missingName: {
        summary: 'A required field is missing',
        message: 'name is required: a string',
      },
      notJson: { summary: 'The body is not JSON', message: 'Request body is not valid JSON' },
    },
  },
  401: {
    description:
      'No `Authorization: Bearer <token>` header, or the token is not valid (bad signature, expired, not yet valid, wrong issuer or audience, unknown key, disallowed algorithm).',
    headers: {
      'WWW-Authenticate': {
        description: `The Bearer challenge (RFC 6750): \`${challenge}\`, plus \`error="invalid_token"\` when a token was presented.`,
        required: true,
        schema: { type: 'string' },
        example: `${challenge}, error="invalid_token"`,
      },
    },
    examples: {
      missingToken: {
        summary: 'No Authorization header',
        message: 'Authorization header is missing: send "Authorization: Bearer <token>"',
      },
      expiredToken: {
        summary: 'An expired token',
        message: 'Bearer token rejected: the token has expired',
      },
    },
  },
  403: {
    description:
      'The token is valid but lacks the scope the deployment requires for this operation (`AUTH_READ_SCOPE` for reading, `AUTH_WRITE_SCOPE` for writing; each only when set).',
    headers: {
      'WWW-Authenticate': {
        description: `The Bearer challenge (RFC 6750) naming the missing scope: \`${challenge}, error="insufficient_scope", scope="..."\`.`,
        required: true,
        schema: { type: 'string' },
        example: `${challenge}, error="insufficient_scope", scope="plants:write"`,
      },
    },
    examples: {
      missingScope: {
        summary: 'The token lacks the required scope',
        message: 'The token lacks the required scope "plants:write"',
      },
    },
  },
  404: {
    description:
      "No plant with this id, or it is another caller's: the two answer alike, so nobody learns what others stored.",
    examples: {
      notFound: {
        summary: "No such plant, or not the caller's",
        message: 'No plant with id 1: it does not exist, or it is not yours',
      },
    },
  },
  413: {
    description: `The body is larger than ${DEFAULT_MAX_BODY_BYTES / 1024} KiB (after base64 decoding).`,
    examples: {
      tooLarge: {
        summary: 'The body is too large',
        message: `Request body is larger than ${DEFAULT_MAX_BODY_BYTES} bytes`,
      },
    },
  },
  415: {
    description:
      '`Content-Type` is missing or not JSON. `application/json`, with or without parameters such as `charset`, and `application/<x>+json` are JSON.',
    examples: {
      notJson: {
        summary: 'A body sent as text/plain',
        message: 'Content-Type must be application/json',
      },
    },
  },
  500: {
    description:
      'A fault of ours. The message is always `Internal server error`; the details go to the log with the request id, never to the client.',
    examples: { internal: { summary: 'An unexpected fault', message: 'Internal server error' } },
  },
  503: {
    description:
      "The plant store is throttling or unreachable, the identity provider's key set cannot be fetched, or the request ran out of time. Retry after `Retry-After` seconds: the same request is always safe to retry, and a 503 does not promise that nothing was written.",
    headers: { 'Retry-After': headerRef('RetryAfter') },
    examples: {
      storeUnavailable: {
        summary: 'The plant store is busy or unreachable',
        message: 'The plant store is busy or unreachable: retry in a few seconds',
      },
      keysUnavailable: {
        summary: "The identity provider's key set cannot be fetched",
        message: 'Token keys are temporarily unavailable: retry in a few seconds',
      },
    },
  },
};

const errorResponse = (status: number, { description, examples, headers = {} }: ErrorStatus) => ({
  description,
  headers: { ...headers, ...commonHeaders },
  content: {
    'application/json': {
      schema: schemaRef('Error'),
      examples: Object.fromEntries(
        Object.entries(examples).map(([name, { summary, message }]) => [
          name,
          { summary, value: { error: status, message } },
        ]),
      ),
    },
  },
});

/** The error responses of an operation: these statuses, in order, worded as API.md or the route. */
export const errorResponses = (statuses: number[], overrides: ErrorOverrides = {}) =>
  Object.fromEntries(
    statuses.map((status) => {
      const spec = overrides[status] ?? errorStatuses[status];
      if (!spec) throw new Error(`no description of the error status ${status}`);
      return [status, errorResponse(status, spec)];
    }),
  );

/** The statuses every operation with a token can answer, besides its own. */
export const AUTH_ERRORS = [401, 403];
/** The statuses of every operation that reaches the store. */
export const OUTAGE_ERRORS = [500, 503];
/** The statuses of a JSON request body. */
export const BODY_ERRORS = [400, 413, 415];

/** The reusable headers every operation may refer to. */
export const componentHeaders = {
  CacheControl: {
    description: '`no-store`: no response may be cached.',
    required: true,
    schema: { type: 'string', const: 'no-store' },
  },
  XContentTypeOptions: {
    description: '`nosniff`: clients must not guess another media type than the declared one.',
    required: true,
    schema: { type: 'string', const: 'nosniff' },
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
    example: RETRY_AFTER_SECONDS,
  },
  ETag: {
    description:
      "The plant's version as a strong entity tag (RFC 9110): send it back in `If-Match` to update only that version.",
    required: true,
    schema: { type: 'string', pattern: '^"[1-9][0-9]*"$' },
    example: '"1"',
  },
};

/** The reusable parameters the operations refer to. */
export const componentParameters = {
  PlantId: {
    name: 'id',
    in: 'path',
    required: true,
    description:
      "The plant's id, in plain decimal digits (`-?(0|[1-9][0-9]*)`) within the id range: `7.0`, `007`, `1e3` or text answer 400 naming `id`.",
    schema: {
      type: 'integer',
      format: 'int64',
      minimum: -Number.MAX_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
    },
    example: 1,
  },
};
