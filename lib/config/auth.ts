// The bearer-token settings: whose tokens are accepted, where their keys come from, and the scopes
// the deployment requires.
import * as z from 'zod/mini';
import { defineSettings, optionalText, positiveInt, required, secureUrl } from './load.ts';

export type KeySource =
  | { kind: 'url'; url: URL; cooldownMs: number; timeoutMs: number }
  | { kind: 'file'; path: string };

export interface AuthSettings {
  issuer: string;
  audience: string;
  keys: KeySource;
  /** The scope reading routes require, and writing ones; none when undefined. */
  scopes: { read: string | undefined; write: string | undefined };
}

/** The issuer's conventional key-set address (OIDC discovery, Cognito). */
const defaultJwksUrl = (issuer: string) =>
  new URL(`${issuer.replace(/\/+$/, '')}/.well-known/jwks.json`);

const scope = z.optional(
  z.string().check(z.trim(), z.regex(/^\S+$/, 'must be one scope, without spaces')),
);

export const authSettings = defineSettings(
  z.object({
    AUTH_ISSUER: required("the tokens' issuer (iss)"),
    AUTH_AUDIENCE: required("the tokens' audience (aud) for this API"),
    AUTH_JWKS_URL: z.optional(secureUrl),
    AUTH_JWKS_FILE: optionalText,
    // a token naming an unknown key refetches the key set at most this often
    AUTH_JWKS_COOLDOWN_SECONDS: positiveInt(30),
    AUTH_JWKS_TIMEOUT_MS: positiveInt(2000),
    AUTH_READ_SCOPE: scope,
    AUTH_WRITE_SCOPE: scope,
    // replaced by the two above: a deployment still setting it must not lose its scope check
    AUTH_REQUIRED_SCOPE: z.optional(
      z.never({
        error:
          'is no longer read: set AUTH_WRITE_SCOPE (POST, PUT, DELETE) and AUTH_READ_SCOPE (GET) instead',
      }),
    ),
  }),
  (env): AuthSettings => ({
    issuer: env.AUTH_ISSUER,
    audience: env.AUTH_AUDIENCE,
    keys: env.AUTH_JWKS_FILE
      ? { kind: 'file', path: env.AUTH_JWKS_FILE }
      : {
          kind: 'url',
          url: env.AUTH_JWKS_URL ? new URL(env.AUTH_JWKS_URL) : defaultJwksUrl(env.AUTH_ISSUER),
          cooldownMs: env.AUTH_JWKS_COOLDOWN_SECONDS * 1000,
          timeoutMs: env.AUTH_JWKS_TIMEOUT_MS,
        },
    scopes: { read: env.AUTH_READ_SCOPE, write: env.AUTH_WRITE_SCOPE },
  }),
  (env) => {
    // without a key source of its own, the keys come from <issuer>/.well-known/jwks.json
    if (env.AUTH_JWKS_URL || env.AUTH_JWKS_FILE || !env.AUTH_ISSUER) return [];
    if (!URL.canParse(env.AUTH_ISSUER)) {
      return [
        'AUTH_ISSUER must be a URL when neither AUTH_JWKS_URL nor AUTH_JWKS_FILE is set (the keys are then fetched from <issuer>/.well-known/jwks.json)',
      ];
    }
    // keys fetched in clear text could be swapped in transit
    return secureUrl.safeParse(defaultJwksUrl(env.AUTH_ISSUER).href).success
      ? []
      : [
          'AUTH_ISSUER must be an https URL (http only for localhost) when the keys are fetched from it: set AUTH_JWKS_URL to an https key set otherwise',
        ];
  },
);
