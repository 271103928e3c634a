// The published contract: the OpenAPI 3.1 document of the service as built. Its schemas are Zod's
// own JSON Schema output for lib/plants/schemas.ts (the schemas that validate requests), so they cannot
// drift from the code; this file adds only what HTTP needs: the operation, security, and API.md's
// status table with its headers and examples. `npm run openapi` writes it to openapi.yaml.

import { stringify } from 'yaml';
import * as z from 'zod/mini';
import { ErrorBody } from '#lib/http/errorBody.ts';
import { RETRY_AFTER_SECONDS } from '#lib/http/httpError.ts';
import { DEFAULT_MAX_BODY_BYTES, MAX_NESTING } from '#lib/http/jsonBody.ts';
import { NewPlant, Plant } from '#lib/plants/schemas.ts';
import { REALM } from '#lib/routes/plantsApi.ts';

type Json = Record<string, unknown>;

/** The document's file, at the repository root. */
export const OPENAPI_FILE = 'openapi.yaml';

/**
 * A schema as OpenAPI 3.1 embeds it (JSON Schema 2020-12, its default dialect). A request body is
 * what a client may send: Zod's input view, where an object allows other properties (they are
 * ignored). A response is what the service sends: Zod's output view, where an object has exactly
 * its declared properties (`additionalProperties: false`).
 */
const jsonSchema = (schema: z.ZodMiniType, io: 'input' | 'output'): Json => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12' });
  return rest;
};

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const challenge = `Bearer realm="${REALM}"`;

interface ErrorStatus {
  description: string;
  /** Named example bodies: an Error with this status and a message the service sends. */
  examples: Record<string, { summary: string; message: string }>;
  headers?: Json;
}

// API.md's table of error statuses: when each is sent, and the headers that come with it.
const errorStatuses: Record<number, ErrorStatus> = {
  400: {
    description: `The request is not a valid NewPlant: the body is missing or empty, not valid JSON, not a JSON object, nests objects and arrays more than ${MAX_NESTING} levels deep, holds a key that attempts prototype pollution (\`__proto__\`, \`constructor.prototype\`), or breaks a field rule. The message names the field and why.`,
    examples: {
      missingName: {
        summary: 'A required field is missing',
        message: 'name is required: a string',
      },
      idOutOfRange: {
        summary: 'An id outside the exact integer range',
        message: 'id must be an integer from -9007199254740991 to 9007199254740991',
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
      'The token is valid but lacks the scope that the deployment requires (only when a required scope is configured).',
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
  409: {
    description:
      'A plant with this id is already stored with a different name or tag. A stored plant is never overwritten.',
    examples: {
      conflict: {
        summary: 'The id is taken by another plant',
        message: 'A plant with id 1 already exists with a different name or tag',
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
    examples: {
      internal: { summary: 'An unexpected fault', message: 'Internal server error' },
    },
  },
  503: {
    description:
      "The plant store is throttling or unreachable, the identity provider's key set cannot be fetched, or the request ran out of time. Retry after `Retry-After` seconds: the same request is always safe to retry (an identical retry answers 200), and a 503 does not promise that nothing was written.",
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

/** Headers on every response (API.md: no caching, no content sniffing). */
const commonHeaders = {
  'Cache-Control': headerRef('CacheControl'),
  'X-Content-Type-Options': headerRef('XContentTypeOptions'),
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

/** The OpenAPI document, as a plain object in the order it is written. */
export const openApiDocument = (): Json => ({
  openapi: '3.1.0',
  info: {
    title: 'Plant Store API',
    version: '1.0.0',
    description:
      'A plant store: `POST /plants` adds a plant. Every request carries a bearer token (a JWT). Every error answers `application/json` with the Error object, whose `error` is the HTTP status code. Checks run in this order: authentication, media type, size, JSON, fields, store; a rejected request writes nothing.',
    license: { name: 'MIT', identifier: 'MIT' },
  },
  servers: [{ url: 'http://127.0.0.1:3000', description: 'The local run (npm start)' }],
  security: [{ bearerAuth: [] }],
  tags: [{ name: 'plants', description: 'The plants in the store' }],
  paths: {
    '/plants': {
      post: {
        tags: ['plants'],
        operationId: 'createPlant',
        summary: 'Create a plant',
        description:
          'Creates a new plant in the store. Retries are safe: the same `id` with the same `name` and `tag` answers 200 with that plant and writes nothing; the same `id` with a different `name` or `tag` answers 409. Properties other than `id`, `name` and `tag` are ignored: never stored, never echoed.',
        requestBody: {
          description: 'The plant to create.',
          required: true,
          content: {
            'application/json': {
              schema: schemaRef('NewPlant'),
              examples: {
                withTag: {
                  summary: 'A plant with a tag',
                  value: { id: 1, name: 'Monstera', tag: 'indoor' },
                },
                withoutTag: { summary: 'A plant without a tag', value: { id: 2, name: 'Fern' } },
              },
            },
          },
        },
        responses: {
          200: {
            description:
              'The plant is stored, or was already stored with the same name and tag (an identical retry writes nothing). The body is the Plant: no id, and `tag` only when the plant has one.',
            headers: commonHeaders,
            content: {
              'application/json': {
                schema: schemaRef('Plant'),
                examples: {
                  withTag: {
                    summary: 'A plant with a tag',
                    value: { name: 'Monstera', tag: 'indoor' },
                  },
                  withoutTag: { summary: 'A plant without a tag', value: { name: 'Fern' } },
                },
              },
            },
          },
          ...Object.fromEntries(
            Object.entries(errorStatuses).map(([status, spec]) => [
              status,
              errorResponse(Number(status), spec),
            ]),
          ),
        },
      },
    },
  },
  components: {
    schemas: {
      NewPlant: jsonSchema(NewPlant, 'input'),
      Plant: jsonSchema(Plant, 'output'),
      Error: jsonSchema(ErrorBody, 'output'),
    },
    headers: {
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
    },
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          'A JWT signed with RS256 or ES256 by the configured issuer, for the configured audience, with `exp` and a `sub` (stored with the plant as its creator). A deployment may require a scope (in `scope` or `scp`).',
      },
    },
  },
});

/** The document as openapi.yaml holds it: the same text for the same code, ending in a newline. */
export const openApiYaml = (): string =>
  `# Generated by \`npm run openapi\` from lib/plants/schemas.ts and infra/openapi/document.ts: do not edit.\n${stringify(
    openApiDocument(),
    // no folded lines (a changed word re-wraps no paragraph) and no YAML anchors for repeated parts
    { lineWidth: 0, aliasDuplicateObjects: false },
  )}`;
