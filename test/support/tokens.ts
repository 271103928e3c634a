// A test identity provider: key pairs, their JWKS, and tokens signed as the tests need them.
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
import { createTokenVerifier, type VerifyToken } from '#lib/auth/tokenVerifier.ts';

type CryptoKey = webcrypto.CryptoKey;

export const TEST_ISSUER = 'https://issuer.test/';
export const TEST_AUDIENCE = 'plant-store-test';

export interface TestKey {
  kid: string;
  alg: 'ES256' | 'RS256';
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

export const makeKey = async (
  alg: 'ES256' | 'RS256' = 'ES256',
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

export interface TokenOptions {
  claims?: JWTPayload;
  issuer?: string;
  audience?: string;
  subject?: string;
  /** seconds from now; negative for an expired token */
  expiresIn?: number;
  notBefore?: number;
  kid?: string;
}

export const signToken = async (key: TestKey, options: TokenOptions = {}) => {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(options.claims ?? {})
    .setProtectedHeader({ alg: key.alg, kid: options.kid ?? key.kid, typ: 'JWT' })
    .setIssuer(options.issuer ?? TEST_ISSUER)
    .setAudience(options.audience ?? TEST_AUDIENCE)
    .setSubject(options.subject ?? 'user-1')
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresIn ?? 600))
    .setNotBefore(now + (options.notBefore ?? 0))
    .sign(key.privateKey);
};

/** The real verifier, for the test issuer and audience, trusting `keySet`. */
export const verifierFor = (keySet: JWTVerifyGetKey): VerifyToken =>
  createTokenVerifier({ issuer: TEST_ISSUER, audience: TEST_AUDIENCE, keySet });

/** The real verifier, trusting exactly the given keys (a local JWKS). */
export const verifierTrusting = async (...keys: TestKey[]): Promise<VerifyToken> =>
  verifierFor(createLocalJWKSet(await jwksOf(...keys)));
