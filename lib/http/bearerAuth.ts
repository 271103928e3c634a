// Bearer authentication (RFC 6750): Authorization → a verified caller on the context.
import type { MiddlewareObj } from '@middy/core';
import {
  KeySetUnavailableError,
  TokenRejectedError,
  type VerifyToken,
} from '#lib/auth/tokenVerifier.ts';
import { httpError, serviceUnavailable } from '#lib/http/httpError.ts';
import type { AuthenticatedContext, HttpEvent } from '#lib/http/types.ts';

export interface BearerAuthOptions {
  verifyToken: VerifyToken;
  /** A scope every caller must hold (from the `scope` or `scp` claim); none by default. */
  requiredScope?: string | undefined;
}

const challenge = 'Bearer realm="plants"';

// The scheme name is case-insensitive (RFC 7235). Whatever follows it counts as a presented token,
// so a malformed one is reported as invalid_token by the verifier.
const bearerPattern = /^Bearer[ \t]+(\S.*?)[ \t]*$/i;

export const bearerAuth = ({
  verifyToken,
  requiredScope,
}: BearerAuthOptions): MiddlewareObj<HttpEvent, unknown, Error, AuthenticatedContext> => {
  const unauthorized = (message: string, cause?: unknown) =>
    httpError(401, message, { cause, headers: { 'WWW-Authenticate': challenge } });
  const invalidToken = (message: string, cause?: unknown) =>
    httpError(401, message, {
      cause,
      headers: { 'WWW-Authenticate': `${challenge}, error="invalid_token"` },
    });

  const bearerAuthBefore: NonNullable<
    MiddlewareObj<HttpEvent, unknown, Error, AuthenticatedContext>['before']
  > = async (request) => {
    const header = request.event.headers?.authorization;
    if (!header?.trim()) {
      throw unauthorized('Authorization header is missing: send "Authorization: Bearer <token>"');
    }
    const token = bearerPattern.exec(header)?.[1];
    if (!token) {
      throw unauthorized('Authorization header must be "Bearer <token>"');
    }
    try {
      request.context.caller = await verifyToken(token);
    } catch (error) {
      if (error instanceof TokenRejectedError) {
        throw invalidToken(`Bearer token rejected: ${error.message}`, error);
      }
      if (error instanceof KeySetUnavailableError) {
        throw serviceUnavailable(
          'Token keys are temporarily unavailable: retry in a few seconds',
          error,
        );
      }
      throw error;
    }
    if (requiredScope && !request.context.caller.scopes.includes(requiredScope)) {
      throw httpError(403, `The token lacks the required scope "${requiredScope}"`, {
        headers: {
          'WWW-Authenticate': `${challenge}, error="insufficient_scope", scope="${requiredScope}"`,
        },
      });
    }
  };
  return { before: bearerAuthBefore };
};
