// The bearer-token settings: whose tokens are accepted, where their keys come from, and the scopes
// the deployment requires.
import { isSecureUrl, type Variables } from './load.ts';

export type KeySource =
  | { kind: 'url'; url: URL; cooldownMs: number; timeoutMs: number }
  | { kind: 'file'; path: string };

export type AuthSettings = ReturnType<typeof authSettings>;

/** AUTH_AUDIENCE's app clients or API identifiers: comma-separated, each trimmed. */
export const audiencesOf = (text: string) => text.split(',').map((entry) => entry.trim());
export const AUDIENCES_RULE =
  'must be audiences separated by commas, none empty: write "<web client id>,<smoke client id>"';

const ONE_SCOPE = /^\S+$/;
const ONE_SCOPE_RULE = 'must be one scope, without spaces';

export const authSettings = (read: Variables) => {
  const issuer = read.required('AUTH_ISSUER', "the tokens' issuer (iss)");
  const audience = read.required('AUTH_AUDIENCE', "the tokens' audiences (aud), comma-separated");
  const audiences = audiencesOf(audience);
  // an empty one ("a,,b", a trailing comma) is a typing mistake; a missing one is noted already
  if (audience && audiences.includes('')) read.problem(`AUTH_AUDIENCE ${AUDIENCES_RULE}`);
  const jwksUrl = read.secureUrl('AUTH_JWKS_URL');
  const jwksFile = read.optional('AUTH_JWKS_FILE');
  // a token naming an unknown key refetches the key set at most this often
  const cooldownSeconds = read.positiveInt('AUTH_JWKS_COOLDOWN_SECONDS', 30);
  const timeoutMs = read.positiveInt('AUTH_JWKS_TIMEOUT_MS', 2000);
  // the scope reading routes require, and writing ones; none when undefined
  const scopes = {
    read: read.matching('AUTH_READ_SCOPE', ONE_SCOPE, ONE_SCOPE_RULE),
    write: read.matching('AUTH_WRITE_SCOPE', ONE_SCOPE, ONE_SCOPE_RULE),
  };
  // replaced by the two above: a deployment still setting it must not lose its scope check
  read.retired(
    'AUTH_REQUIRED_SCOPE',
    'set AUTH_WRITE_SCOPE (POST, PUT, PATCH, DELETE) and AUTH_READ_SCOPE (GET) instead',
  );
  const keys = (): KeySource | undefined => {
    if (jwksFile) return { kind: 'file', path: jwksFile };
    // without a key source of its own, the keys come from <issuer>/.well-known/jwks.json
    const url = jwksUrl === undefined ? keySetOfIssuer(issuer, read) : URL.parse(jwksUrl);
    return url ? { kind: 'url', url, cooldownMs: cooldownSeconds * 1000, timeoutMs } : undefined;
  };
  // no keys only where a problem has been noted: these settings are then never used
  return { issuer, audiences, keys: keys() ?? ({ kind: 'file', path: '' } as KeySource), scopes };
};

/** The issuer's key set, if the issuer can serve it safely; else the problem is noted. */
const keySetOfIssuer = (issuer: string, read: Pick<Variables, 'problem'>): URL | undefined => {
  // a missing issuer is noted already
  if (!issuer) return undefined;
  if (!URL.canParse(issuer))
    return read.problem(
      'AUTH_ISSUER must be a URL when neither AUTH_JWKS_URL nor AUTH_JWKS_FILE is set (the keys are then fetched from <issuer>/.well-known/jwks.json)',
    );
  // the issuer's conventional key-set address (OIDC discovery, Cognito)
  const url = new URL(`${issuer.replace(/\/+$/, '')}/.well-known/jwks.json`);
  // keys fetched in clear text could be swapped in transit
  if (isSecureUrl(url.href)) return url;
  return read.problem(
    'AUTH_ISSUER must be an https URL (http only for localhost) when the keys are fetched from it: set AUTH_JWKS_URL to an https key set otherwise',
  );
};
