// Bearer authentication (RFC 6750): Authorization → context.caller, with the scope the route needs.
import {
  KeySetUnavailableError,
  TokenRejectedError,
  type VerifyToken,
} from '#lib/auth/tokenVerifier.ts';
import { httpError, retryAfter } from '#lib/http/httpError.ts';
import type { Stage } from '#lib/http/types.ts';

export interface BearerAuthOptions {
  verifyToken: VerifyToken;
  /** The protection space named in the challenge (`WWW-Authenticate: Bearer realm="..."`). */
  realm: string;
  /** A scope the caller must hold (from the `scope` or `scp` claim); none when undefined. */
  requiredScope: string | undefined;
}

/** What the client is told of a request refused for its token (the OpenAPI examples too). */
export const BEARER_REFUSALS = {
  missing: 'Authorization header is missing: send "Authorization: Bearer <token>"',
  notBearer: 'Authorization header must be "Bearer <token>"',
  rejected: (reason: string) => `Bearer token rejected: ${reason}`,
  keysUnavailable: 'Token keys are temporarily unavailable: retry in a few seconds',
  lacksScope: (scope: string) => `The token lacks the required scope "${scope}"`,
};

// The scheme name is case-insensitive (RFC 7235). Whatever follows it counts as a presented token,
// so a malformed one is reported as invalid_token by the verifier.
const bearerPattern = /^Bearer[ \t]+(\S.*?)[ \t]*$/i;

// our outage, not the caller's fault: no challenge, and when to retry
const unavailable = { metric: 'KeySetUnavailable', headers: retryAfter } as const;

export const bearerAuth = ({ verifyToken, realm, requiredScope }: BearerAuthOptions): Stage => {
  const challenge = `Bearer realm="${realm}"`;
  const refuse = (message: string, challengeParams = '', cause?: unknown, status = 401) =>
    httpError(status, message, {
      metric: 'AuthFailures',
      cause,
      headers: { 'WWW-Authenticate': `${challenge}${challengeParams}` },
    });

  return {
    before: async (request) => {
      const header = request.event.headers?.authorization;
      if (!header?.trim()) throw refuse(BEARER_REFUSALS.missing);
      const token = bearerPattern.exec(header)?.[1];
      if (!token) throw refuse(BEARER_REFUSALS.notBearer);
      try {
        request.context.caller = await verifyToken(token);
      } catch (error) {
        if (error instanceof TokenRejectedError)
          throw refuse(BEARER_REFUSALS.rejected(error.message), ', error="invalid_token"', error);
        if (error instanceof KeySetUnavailableError)
          throw httpError(503, BEARER_REFUSALS.keysUnavailable, { ...unavailable, cause: error });
        throw error;
      }
      if (requiredScope && !request.context.caller.scopes.includes(requiredScope)) {
        const params = `, error="insufficient_scope", scope="${requiredScope}"`;
        throw refuse(BEARER_REFUSALS.lacksScope(requiredScope), params, undefined, 403);
      }
    },
  };
};
