// Bearer-token verification: a caller, or whose fault (TokenRejectedError, KeySetUnavailableError).
import { readFileSync } from 'node:fs';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  type JWKSCacheInput,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwksCache,
  jwtVerify,
} from 'jose';
import type { KeySource } from '#lib/config/auth.ts';

/** Asymmetric algorithms only: never `none`, never HMAC with a shared secret. */
export const ALLOWED_ALGORITHMS = ['RS256', 'ES256'];
export const CLOCK_TOLERANCE_SECONDS = 60;
/** Far above any real JWT; bounds the work an attacker can make us do per request. */
export const MAX_TOKEN_LENGTH = 8192;

export interface Caller {
  sub: string;
  scopes: readonly string[];
}

export class TokenRejectedError extends Error {
  override name = 'TokenRejectedError';
}

export class KeySetUnavailableError extends Error {
  override name = 'KeySetUnavailableError';
}

export const TOKEN_EXPIRED = 'the token has expired';

/** jose error codes that mean the token itself is unacceptable, with the reason we tell the caller. */
const rejectionReasons: Record<string, string> = {
  ERR_JWT_EXPIRED: TOKEN_EXPIRED,
  ERR_JOSE_ALG_NOT_ALLOWED: `the token's algorithm is not allowed (accepted: ${ALLOWED_ALGORITHMS.join(', ')})`,
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: "the token's signature is not valid",
  ERR_JWKS_NO_MATCHING_KEY: 'the token is not signed by a known key',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'the token does not identify its signing key (kid)',
  ERR_JWS_INVALID: 'the token is malformed',
  ERR_JWT_INVALID: 'the token is malformed',
  ERR_JWK_INVALID: 'the token is malformed',
  ERR_JOSE_NOT_SUPPORTED: 'the token uses an unsupported feature',
};

const claimReason = (claim: unknown, reason: unknown) => {
  if (claim === 'nbf') return 'the token is not valid yet (nbf)';
  return reason === 'missing'
    ? `the token has no "${String(claim)}" claim`
    : `the token's "${String(claim)}" claim is not accepted`;
};

/** jose's signs that the key set could not be fetched: a timeout, a non-200 or non-JSON reply. */
const KEY_FETCH_FAILURES = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID', 'ERR_JOSE_GENERIC']);

const toVerificationError = (error: unknown): unknown => {
  const { code, claim, reason } = (error ?? {}) as Partial<errors.JWTClaimValidationFailed>;
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED')
    return new TokenRejectedError(claimReason(claim, reason), { cause: error });
  const rejection = code === undefined ? undefined : rejectionReasons[code];
  if (rejection) return new TokenRejectedError(rejection, { cause: error });
  // fetch() itself failing (network, DNS, refused) surfaces as undici's TypeError
  const networkFailure = error instanceof TypeError && error.message === 'fetch failed';
  if ((code !== undefined && KEY_FETCH_FAILURES.has(code)) || networkFailure)
    return new KeySetUnavailableError('the signing keys could not be fetched', { cause: error });
  // any other jose error is about the token (a JOSE feature we do not accept)
  if (error instanceof errors.JOSEError)
    return new TokenRejectedError('the token could not be verified', { cause: error });
  // not jose's and not the network's: a fault of ours, a 500
  return error;
};

const scopesOf = ({ scope, scp }: JWTPayload): string[] => {
  const scopes = typeof scope === 'string' ? scope : scp;
  if (typeof scopes === 'string') return scopes.split(' ').filter(Boolean);
  return Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [];
};

/** A local file's key set, or a remote JWKS refetched at most once per cooldown (made-up kids). */
export const keySetFrom = (source: KeySource): KeySet => {
  if (source.kind === 'file') {
    // read once: the keys a file gave never change
    const jwks = JSON.parse(readFileSync(source.path, 'utf8'));
    return Object.assign(createLocalJWKSet(jwks), { lastFetched: { jwks } });
  }
  // jose puts each fetch's key set here (lib/auth/tokenCache.ts reads it)
  const lastFetched: JWKSCacheInput = {};
  const remote = createRemoteJWKSet(source.url, {
    timeoutDuration: source.timeoutMs,
    cooldownDuration: source.cooldownMs,
    cacheMaxAge: 10 * 60_000,
    [jwksCache]: lastFetched,
  });
  return Object.assign(remote, { lastFetched });
};

/** A key set, and what it fetched last (for a remote one, a new object with each fetch). */
export type KeySet = JWTVerifyGetKey & { readonly lastFetched?: { readonly jwks?: unknown } };

/** An audience in `aud`, or in a Cognito access token's `client_id` (jose's needs an `aud`). */
const isForAudience = ({ aud, token_use, client_id }: JWTPayload, audiences: unknown[]) => {
  if (aud !== undefined) return [aud].flat().some((name) => audiences.includes(name));
  return token_use === 'access' && audiences.includes(client_id);
};

export interface TokenVerifierOptions {
  issuer: string;
  audiences: string[];
  keySet: JWTVerifyGetKey;
  /** The clock `exp` and `nbf` are checked against (tests move it). */
  now?: () => Date;
}

export type VerifyToken = (token: string) => Promise<Caller>;

/** A verified token: its caller, and the times it is valid between (seconds since the epoch). */
export interface VerifiedToken {
  caller: Caller;
  expiresAt: number;
  notBefore: number | undefined;
}

/** Verifies a token fully (signature and every claim) and says until when it is valid. */
export const createClaimsVerifier =
  ({ issuer, audiences, keySet, now }: TokenVerifierOptions) =>
  async (token: string): Promise<VerifiedToken> => {
    if (token.length > MAX_TOKEN_LENGTH) throw new TokenRejectedError('the token is too long');
    const { payload } = await jwtVerify(token, keySet, {
      issuer,
      algorithms: ALLOWED_ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['sub', 'exp'],
      ...(now ? { currentDate: now() } : {}),
    }).catch((error: unknown) => Promise.reject(toVerificationError(error)));
    if (!isForAudience(payload, audiences))
      throw new TokenRejectedError('the token\'s "aud" claim is not accepted');
    // the creator stored with each plant: a claim of any other type would be stored mangled
    if (typeof payload.sub !== 'string' || payload.sub === '')
      throw new TokenRejectedError('the token\'s "sub" claim must be a non-empty string');
    return {
      caller: { sub: payload.sub, scopes: scopesOf(payload) },
      expiresAt: payload.exp as number,
      notBefore: payload.nbf,
    };
  };
