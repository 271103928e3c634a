// A test identity provider: key pairs, their JWKS, and tokens signed as the tests need them;
// and the tokens an attacker could forge.
import type { webcrypto } from 'node:crypto';
import {
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  SignJWT,
} from 'jose';
import { createClaimsVerifier, type VerifyToken } from '#lib/auth/tokenVerifier.ts';

type CryptoKey = webcrypto.CryptoKey;

export const TEST_ISSUER = 'https://issuer.test/';
export const TEST_AUDIENCE = 'plant-store-test';

export interface TestKey {
  kid: string;
  /** PS256 only to show that the verifier refuses what is not on its allow-list */
  alg: 'ES256' | 'RS256' | 'PS256';
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

export const makeKey = async (
  alg: TestKey['alg'] = 'ES256',
  kid = `${alg}-${crypto.randomUUID()}`,
): Promise<TestKey> => {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, publicKey };
};

export const jwksOf = async (...keys: TestKey[]): Promise<JSONWebKeySet> => ({
  keys: await Promise.all(
    keys.map(async (key) => ({
      ...(await exportJWK(key.publicKey)),
      kid: key.kid,
      alg: key.alg,
      use: 'sig',
    })),
  ),
});

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Claims that the verifier would accept, if the signature were good. */
export const acceptableClaims = (overrides: JWTPayload = {}): JWTPayload => ({
  iss: TEST_ISSUER,
  aud: TEST_AUDIENCE,
  sub: 'user-1',
  iat: nowSeconds(),
  exp: nowSeconds() + 600,
  ...overrides,
});

/** A token of exactly these claims, none added: for tokens that lack a standard claim. */
export const signClaims = (key: TestKey, claims: JWTPayload): Promise<string> =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .sign(key.privateKey);

/** A token without the standard aud claim, as Amazon Cognito issues access tokens. */
export const cognitoStyle = (key: TestKey, claims: JWTPayload): Promise<string> => {
  const { aud: _withoutAud, ...standard } = acceptableClaims();
  return signClaims(key, { ...standard, ...claims });
};

export interface TokenOptions {
  /** more claims; a standard one given here replaces the option's */
  claims?: JWTPayload;
  issuer?: string;
  audience?: string;
  subject?: string;
  /** seconds from now; negative for an expired token */
  expiresIn?: number;
  notBefore?: number;
}

export const signToken = (key: TestKey, options: TokenOptions = {}): Promise<string> => {
  const now = nowSeconds();
  return signClaims(key, {
    ...acceptableClaims({
      iat: now,
      exp: now + (options.expiresIn ?? 600),
      nbf: now + (options.notBefore ?? 0),
    }),
    ...(options.issuer !== undefined && { iss: options.issuer }),
    ...(options.audience !== undefined && { aud: options.audience }),
    ...(options.subject !== undefined && { sub: options.subject }),
    ...options.claims,
  });
};

/** The real verifier, for the test issuer and `audiences`, trusting `keySet` (no token cache). */
export const verifierFor = (keySet: JWTVerifyGetKey, audiences = [TEST_AUDIENCE]): VerifyToken => {
  const verifyClaims = createClaimsVerifier({ issuer: TEST_ISSUER, audiences, keySet });
  return async (token) => (await verifyClaims(token)).caller;
};

/** The real verifier, trusting exactly the given keys (a local JWKS). */
export const verifierTrusting = async (...keys: TestKey[]): Promise<VerifyToken> =>
  verifierFor(createLocalJWKSet(await jwksOf(...keys)));

const base64url = (value: unknown): string =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** An unsecured JWT (`alg: none`): header, payload and an empty signature. */
export const unsecuredToken = (claims: JWTPayload = acceptableClaims()): string =>
  `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;

/**
 * A JWT signed with HMAC, which the service must never accept: with a shared secret, or with a
 * secret and kid of the attacker's choice (e.g. a public key's bytes, for algorithm confusion).
 */
export const hmacToken = (
  claims: JWTPayload = acceptableClaims(),
  {
    secret = new TextEncoder().encode('a-shared-secret-of-at-least-32-bytes'),
    kid,
  }: { secret?: Uint8Array; kid?: string } = {},
): Promise<string> =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', ...(kid !== undefined && { kid }) })
    .sign(secret);

/** The token with one byte of its payload changed (its `sub` becomes user-2), signature kept. */
export const tamperedToken = (token: string): string => {
  const [header, payload, signature] = token.split('.');
  const json = Buffer.from(payload ?? '', 'base64url').toString('utf8');
  const changed = json.replace('"sub":"user-1"', '"sub":"user-2"');
  if (changed === json) throw new Error('tamperedToken expects a token whose sub is user-1');
  return `${header}.${base64url(changed)}.${signature}`;
};
