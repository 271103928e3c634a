// What every operation of the document shares: references, JSON Schema and parameters from Zod, the
// headers of every answer, and API.md's error statuses with the messages the service sends (taken
// from the code that sends them, or from running the schema that refuses).
import * as z from 'zod/mini';
import { TOKEN_EXPIRED } from '#lib/auth/tokenVerifier.ts';
import { BEARER_REFUSALS } from '#lib/http/bearerAuth.ts';
import { INTERNAL_ERROR } from '#lib/http/errorResponder.ts';
import { RETRY_AFTER_SECONDS } from '#lib/http/httpError.ts';
import { BODY_REFUSALS, DEFAULT_MAX_BODY_BYTES, MAX_NESTING } from '#lib/http/jsonBody.ts';
import type { InputSchemas } from '#lib/http/validateInput.ts';
import { NewPlant } from '#lib/plants/schemas.ts';
import { plantNotFoundMessage, STORE_UNAVAILABLE } from '#lib/routes/plantReplies.ts';
import { REALM } from '#lib/routes/routeList.ts';

export type Json = Record<string, unknown>;

type Examples = Record<string, { summary: string; value: unknown }>;

/**
 * What a file of operations/ says of its route, named as the route's function: the words. Where it
 * is, its parameters and its request body's schema come from the route list and the route itself.
 */
export interface OperationDescription {
  /** The route as the pipeline runs it: its name, and the schemas of its body, path and query. */
  route: { name: string } & InputSchemas<unknown, unknown, unknown>;
  summary: string;
  description: string;
  /** Parameters the route reads besides its schemas' (a header its logic reads). */
  parameters?: Json[];
  /** Only for a route with a body. */
  requestBody?: { description: string; examples: Examples };
  responses: Json;
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

/** The header of a conditional update (PUT and PATCH): the version the change was made against. */
export const ifMatchParameter = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    'The `ETag` of the plant as read (strong comparison, RFC 9110), several separated by commas, or `*` for any version. A weak tag never matches.',
  schema: { type: 'string' },
  example: '"1"',
};

export const challenge = `Bearer realm="${REALM}"`;

/** Headers on every response (API.md: no caching, no content sniffing). */
export const commonHeaders = {
  'Cache-Control': headerRef('CacheControl'),
  'X-Content-Type-Options': headerRef('XContentTypeOptions'),
};

/** The message a schema refuses this input with: what the service answers it (a 400). */
export const refusalOf = (schema: z.ZodMiniType, input: unknown): string => {
  const result = schema.safeParse(input);
  const message = result.error?.issues[0]?.message;
  if (!message) throw new Error(`the example ${JSON.stringify(input)} is not refused`);
  return message;
};

/**
 * The parameters of a path or query schema (an object of texts), as OpenAPI describes them: the
 * JSON Schema each text's metadata gives (what it stands for), its description and first example.
 */
export const parametersOf = (schema: z.ZodMiniType, location: 'path' | 'query'): Json[] => {
  const { properties = {}, required = [] } = jsonSchema(schema, 'input') as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, { description, examples, ...rest }]) => ({
    name,
    in: location,
    required: location === 'path' || required.includes(name),
    description,
    schema: rest,
    ...(Array.isArray(examples) ? { example: examples[0] } : {}),
  }));
};

/** A success with a JSON body: its schema, description, named examples and headers. */
export const jsonSuccess = (
  description: string,
  schema: Json,
  examples: Examples,
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

/** The scope the 403's examples name. */
const EXAMPLE_SCOPE = 'plants:write';

/** API.md's error statuses as every route means them; a route may word one its own way. */
const errorStatuses: Record<number, ErrorStatus> = {
  400: {
    description: `The request is not valid: ${bodyRefusals}. The message names the field and why.`,
    examples: {
      missingName: {
        summary: 'A required field is missing',
        message: refusalOf(NewPlant, { id: 1 }),
      },
      notJson: { summary: 'The body is not JSON', message: BODY_REFUSALS.notJson },
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
        message: BEARER_REFUSALS.missing,
      },
      expiredToken: {
        summary: 'An expired token',
        message: BEARER_REFUSALS.rejected(TOKEN_EXPIRED),
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
        example: `${challenge}, error="insufficient_scope", scope="${EXAMPLE_SCOPE}"`,
      },
    },
    examples: {
      missingScope: {
        summary: 'The token lacks the required scope',
        message: BEARER_REFUSALS.lacksScope(EXAMPLE_SCOPE),
      },
    },
  },
  404: {
    description:
      "No plant with this id, or it is another caller's: the two answer alike, so nobody learns what others stored.",
    examples: {
      notFound: {
        summary: "No such plant, or not the caller's",
        message: plantNotFoundMessage(1),
      },
    },
  },
  413: {
    description: `The body is larger than ${DEFAULT_MAX_BODY_BYTES / 1024} KiB (after base64 decoding).`,
    examples: {
      tooLarge: {
        summary: 'The body is too large',
        message: BODY_REFUSALS.tooLarge(DEFAULT_MAX_BODY_BYTES),
      },
    },
  },
  415: {
    description:
      '`Content-Type` is missing or not JSON. `application/json`, with or without parameters such as `charset`, and `application/<x>+json` are JSON.',
    examples: {
      notJson: {
        summary: 'A body sent as text/plain',
        message: BODY_REFUSALS.mediaType(),
      },
    },
  },
  500: {
    description: `A fault of ours. The message is always \`${INTERNAL_ERROR}\`; the details go to the log with the request id, never to the client.`,
    examples: { internal: { summary: 'An unexpected fault', message: INTERNAL_ERROR } },
  },
  503: {
    description:
      "The plant store is throttling or unreachable, the identity provider's key set cannot be fetched, or the request ran out of time. Retry after `Retry-After` seconds: the same request is always safe to retry, and a 503 does not promise that nothing was written.",
    headers: { 'Retry-After': headerRef('RetryAfter') },
    examples: {
      storeUnavailable: {
        summary: 'The plant store is busy or unreachable',
        message: STORE_UNAVAILABLE,
      },
      keysUnavailable: {
        summary: "The identity provider's key set cannot be fetched",
        message: BEARER_REFUSALS.keysUnavailable,
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
