// Small token helpers shared by the unit tests: the tokens an attacker could forge.
import { type JWTPayload, SignJWT } from 'jose';
import { TEST_AUDIENCE, TEST_ISSUER } from '../support/tokens.ts';

export const base64url = (value: unknown): string =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

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

/** An unsecured JWT (`alg: none`): header, payload and an empty signature. */
export const unsecuredToken = (claims: JWTPayload = acceptableClaims()): string =>
  `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;

/** A JWT signed with HMAC and a shared secret, which the service must never accept. */
export const hmacToken = (claims: JWTPayload = acceptableClaims()): Promise<string> =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode('a-shared-secret-of-at-least-32-bytes'));

/** The token with one byte of its payload changed (its `sub` becomes user-2), signature kept. */
export const tamperedToken = (token: string): string => {
  const [header, payload, signature] = token.split('.');
  const json = Buffer.from(payload ?? '', 'base64url').toString('utf8');
  const changed = json.replace('"sub":"user-1"', '"sub":"user-2"');
  if (changed === json) throw new Error('tamperedToken expects a token whose sub is user-1');
  return `${header}.${base64url(changed)}.${signature}`;
};
