// An operation's responses: each error status worded as docs/api.md, its resource or its route
// does, with messages the service sends (from the code that sends them or the schema that refuses).
import { TOKEN_EXPIRED } from '#lib/auth/tokenVerifier.ts';
import { BEARER_REFUSALS } from '#lib/http/bearerAuth.ts';
import { ErrorBody } from '#lib/http/errorBody.ts';
import { INTERNAL_ERROR } from '#lib/http/errorResponder.ts';
import { BODY_REFUSALS, MAX_BODY_BYTES, MAX_NESTING } from '#lib/http/jsonBody.ts';
import { NewPlant } from '#lib/plants/schemas.ts';
import { plantNotFoundMessage, STORE_UNAVAILABLE } from '#lib/routes/plantReplies.ts';
import { REALM, type RouteEntry } from '#lib/routes/routeEntry.ts';
import { commonHeaders, examplesOf, header, retryAfterHeader } from './responses.ts';
import { type Json, type RouteSchemas, refusalOf, schemaRef } from './schemas.ts';

/** An error status as an operation means it, and named example messages the service sends. */
export interface ErrorStatus {
  description: string;
  examples: Record<string, [summary: string, message: string]>;
  headers?: Json;
}

/** Statuses worded for some routes: a resource's, or one route's own. */
export type ErrorWordings = Partial<Record<number, ErrorStatus>>;

const challenge = `Bearer realm="${REALM}"`;

/** The `WWW-Authenticate` header of a 401 and a 403: this description, this error in its example. */
const bearerChallenge = (description: string, error: string) => ({
  'WWW-Authenticate': header(description, { type: 'string' }, `${challenge}, ${error}`),
});

const EXAMPLE_SCOPE = 'plants:write';

/** A store's 503: `more`, what its routes add to it (the end of a sentence), and its examples. */
export const storeUnavailable = (
  store: string,
  message: string,
  more: string,
  examples: ErrorStatus['examples'] = {},
): ErrorStatus => ({
  description: `The ${store} store is throttling or unreachable, the identity provider's key set cannot be fetched, or the request ran out of time. Retry after \`Retry-After\` seconds${more}`,
  headers: retryAfterHeader,
  examples: {
    storeUnavailable: [`The ${store} store is busy or unreachable`, message],
    keysUnavailable: [
      "The identity provider's key set cannot be fetched",
      BEARER_REFUSALS.keysUnavailable,
    ],
    ...examples,
  },
});

/** docs/api.md's error statuses, as every route means them unless its resource or itself words one. */
const API_STATUSES: Record<number, ErrorStatus> = {
  400: {
    description: `The request is not valid: the body is missing or empty, not valid JSON, not a JSON object, nests objects and arrays more than ${MAX_NESTING} levels deep, holds a key that attempts prototype pollution (\`__proto__\`, \`constructor.prototype\`), or breaks a field rule. The message names the field and why.`,
    examples: {
      missingName: ['A required field is missing', refusalOf(NewPlant, { id: 1 })],
      notJson: ['The body is not JSON', BODY_REFUSALS.notJson],
    },
  },
  401: {
    description:
      'No `Authorization: Bearer <token>` header, or the token is not valid (bad signature, expired, not yet valid, wrong issuer or audience, unknown key, disallowed algorithm).',
    headers: bearerChallenge(
      `The Bearer challenge (RFC 6750): \`${challenge}\`, plus \`error="invalid_token"\` when a token was presented.`,
      'error="invalid_token"',
    ),
    examples: {
      missingToken: ['No Authorization header', BEARER_REFUSALS.missing],
      expiredToken: ['An expired token', BEARER_REFUSALS.rejected(TOKEN_EXPIRED)],
    },
  },
  403: {
    description:
      'The token is valid but lacks the scope the deployment requires for this operation (`AUTH_READ_SCOPE` for reading, `AUTH_WRITE_SCOPE` for writing; each only when set).',
    headers: bearerChallenge(
      `The Bearer challenge (RFC 6750) naming the missing scope: \`${challenge}, error="insufficient_scope", scope="..."\`.`,
      `error="insufficient_scope", scope="${EXAMPLE_SCOPE}"`,
    ),
    examples: {
      missingScope: [
        'The token lacks the required scope',
        BEARER_REFUSALS.lacksScope(EXAMPLE_SCOPE),
      ],
    },
  },
  404: {
    description:
      "No plant with this id, or it is another caller's: the two answer alike, so nobody learns what others stored.",
    examples: { notFound: ["No such plant, or not the caller's", plantNotFoundMessage(1)] },
  },
  413: {
    description: `The body is larger than ${MAX_BODY_BYTES / 1024} KiB (after base64 decoding).`,
    examples: { tooLarge: ['The body is too large', BODY_REFUSALS.tooLarge] },
  },
  415: {
    description:
      '`Content-Type` is missing or not JSON. `application/json`, with or without parameters such as `charset`, and `application/<x>+json` are JSON.',
    examples: { notJson: ['A body sent as text/plain', BODY_REFUSALS.mediaType()] },
  },
  500: {
    description: `A fault of ours. The message is always \`${INTERNAL_ERROR}\`; the details go to the log with the request id, never to the client.`,
    examples: { internal: ['An unexpected fault', INTERNAL_ERROR] },
  },
  503: storeUnavailable(
    'plant',
    STORE_UNAVAILABLE,
    ': the same request is always safe to retry, and a 503 does not promise that nothing was written.',
  ),
};

/** An operation's responses: its successes as written; its route's errors and its own, worded. */
export const responsesOf = (
  { access, path, body, query }: RouteEntry & RouteSchemas,
  resource: ErrorWordings,
  own: Record<number, Json | ErrorStatus>,
) => {
  const hasPathParameters = path.includes('{');
  const statuses = new Set([
    ...(body || query || hasPathParameters ? [400] : []),
    ...(access === 'anyone' ? [] : [401, 403]),
    ...(hasPathParameters ? [404] : []),
    ...(body ? [413, 415] : []),
    500,
    503,
    ...Object.keys(own).map(Number),
  ]);
  // an object's integer keys come in ascending order: the statuses in order
  return Object.fromEntries(
    [...statuses].map((status) => {
      if (status < 400) return [status, own[status]];
      const wording = (own[status] as ErrorStatus) ?? resource[status] ?? API_STATUSES[status];
      if (!wording) throw new Error(`no description of the error status ${status}`);
      const { description, examples, headers = {} } = wording;
      const values = examplesOf(examples, (message) => ({ error: status, message }));
      const content = { schema: schemaRef(ErrorBody), examples: values };
      const response = { description, headers: { ...headers, ...commonHeaders } };
      return [status, { ...response, content: { 'application/json': content } }];
    }),
  );
};
