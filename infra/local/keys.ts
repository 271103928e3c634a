// The local run's token issuer: an ES256 key pair made on first use and kept with the local data,
// its public half published as a JWKS file that the function reads (AUTH_JWKS_FILE).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  SignJWT,
} from 'jose';

export const LOCAL_ISSUER = 'plant-store-local';
export const LOCAL_AUDIENCE = 'plant-store';
const ALG = 'ES256';

export interface LocalKeys {
  jwksPath: string;
  privateJwk: JWK;
}

export const ensureLocalKeys = async (dataDir: string): Promise<LocalKeys> => {
  const dir = join(dataDir, 'keys');
  const privatePath = join(dir, 'signing-key.jwk.json');
  const jwksPath = join(dir, 'jwks.json');
  if (existsSync(privatePath) && existsSync(jwksPath))
    return { jwksPath, privateJwk: JSON.parse(readFileSync(privatePath, 'utf8')) };
  const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ALG };
  mkdirSync(dir, { recursive: true });
  writeFileSync(privatePath, JSON.stringify(privateJwk), { mode: 0o600 });
  writeFileSync(jwksPath, JSON.stringify({ keys: [{ ...publicJwk, kid, alg: ALG, use: 'sig' }] }));
  return { jwksPath, privateJwk };
};

/** The caller and lifetime of a local token when none is asked for (npm run token, npm run events). */
export const DEFAULT_TOKEN = { sub: 'local-user', ttlSeconds: 3600 } as const;

/** `ttlSeconds`: seconds until expiry; negative mints a token that has already expired. */
export const mintLocalToken = async (
  privateJwk: JWK,
  { sub, scope, ttlSeconds }: { sub: string; scope?: string | undefined; ttlSeconds: number },
) => {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(scope ? { scope } : {})
    .setProtectedHeader({ alg: ALG, kid: String(privateJwk.kid), typ: 'JWT' })
    .setIssuer(LOCAL_ISSUER)
    .setAudience(LOCAL_AUDIENCE)
    .setSubject(sub)
    .setIssuedAt(Math.min(now, now + ttlSeconds))
    .setExpirationTime(now + ttlSeconds)
    .sign(await importJWK(privateJwk, ALG));
};

/** Whose tokens the local run accepts: the local key's (npm run token), or a given provider's. */
export const localAuth = async (dataDir: string) => {
  const { AUTH_JWKS_URL, AUTH_ISSUER, AUTH_AUDIENCE } = process.env;
  if (AUTH_JWKS_URL) {
    if (!AUTH_ISSUER || !AUTH_AUDIENCE)
      throw new Error(
        'AUTH_JWKS_URL needs AUTH_ISSUER and AUTH_AUDIENCE too: set all three, or none for the local key',
      );
    return {
      env: { AUTH_JWKS_URL, AUTH_ISSUER, AUTH_AUDIENCE, AUTH_JWKS_FILE: '' },
      description: `issued by ${AUTH_ISSUER} for ${AUTH_AUDIENCE}, keys from ${AUTH_JWKS_URL}`,
      token: '<a token from your identity provider>',
    };
  }
  const { jwksPath: AUTH_JWKS_FILE, privateJwk } = await ensureLocalKeys(dataDir);
  return {
    env: {
      AUTH_ISSUER: LOCAL_ISSUER,
      AUTH_AUDIENCE: LOCAL_AUDIENCE,
      AUTH_JWKS_FILE,
      AUTH_JWKS_URL: '',
    },
    description: 'from the local key: npm run token',
    token: '$(npm run --silent token)',
    /** The token the reference page offers, as `npm run token` would print it. */
    pageToken: () => mintLocalToken(privateJwk, DEFAULT_TOKEN),
  };
};
