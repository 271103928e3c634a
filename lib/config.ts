// Environment → typed config, read and validated once at cold start. A bad value stops the
// function at init with every problem listed, instead of failing request by request.
import * as z from 'zod/mini';

const required = (what: string) =>
  z
    .string({ error: `is required: ${what}` })
    .check(z.trim(), z.minLength(1, `is required: ${what}`));
const optionalText = z.optional(
  z.string().check(z.trim(), z.minLength(1, 'must not be blank: leave it unset instead')),
);
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const optionalUrl = z.optional(httpUrl);
const isLoopback = (url: string) =>
  ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);
// signing keys fetched in clear text could be swapped in transit: https, except on this machine
const keySetUrl = z.optional(
  httpUrl.check(
    z.refine(
      (url) => url.startsWith('https:') || isLoopback(url),
      'must be an https URL (http only for localhost)',
    ),
  ),
);
const positiveInt = (fallback: number) =>
  z._default(
    z.coerce
      .number({ error: 'must be a positive integer' })
      .check(z.int('must be a positive integer'), z.positive('must be a positive integer')),
    fallback,
  );

const Env = z.object({
  PLANTS_TABLE: required('the DynamoDB table name'),
  DYNAMODB_ENDPOINT: optionalUrl,
  // Lambda always sets AWS_REGION; the default serves local runs against DynamoDB Local
  AWS_REGION: z._default(z.string().check(z.minLength(1)), 'us-east-1'),
  DYNAMODB_MAX_ATTEMPTS: positiveInt(3),
  // per attempt: with 3 attempts and the SDK's backoff a store outage answers 503 within 6 s
  // (lib/store/retryBound.ts), which leaves room for a 2 s key-set fetch inside the function's
  // 10 s timeout (serverless.yml) less the handler's 500 ms margin
  DYNAMODB_CONNECT_TIMEOUT_MS: positiveInt(500),
  DYNAMODB_REQUEST_TIMEOUT_MS: positiveInt(1000),
  AUTH_ISSUER: required("the tokens' issuer (iss)"),
  AUTH_AUDIENCE: required("the tokens' audience (aud) for this API"),
  AUTH_JWKS_URL: keySetUrl,
  AUTH_JWKS_FILE: optionalText,
  // a token naming an unknown key refetches the key set at most this often
  AUTH_JWKS_COOLDOWN_SECONDS: positiveInt(30),
  AUTH_JWKS_TIMEOUT_MS: positiveInt(2000),
  LOG_LEVEL: z._default(
    z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'], {
      error: 'must be one of DEBUG, INFO, WARN, ERROR, SILENT',
    }),
    'INFO',
  ),
  METRICS_NAMESPACE: z._default(
    z.string().check(z.trim(), z.minLength(1, 'must not be blank: leave it unset instead')),
    'PlantStore',
  ),
  AUTH_REQUIRED_SCOPE: z.optional(
    z.string().check(z.trim(), z.regex(/^\S+$/, 'must be one scope, without spaces')),
  ),
});

/** Problems that involve more than one variable, checked even when others are wrong too. */
const crossProblems = (env: Record<string, string | undefined>): string[] =>
  !env.AUTH_JWKS_URL && !env.AUTH_JWKS_FILE && env.AUTH_ISSUER && !URL.canParse(env.AUTH_ISSUER)
    ? [
        'AUTH_ISSUER must be a URL when neither AUTH_JWKS_URL nor AUTH_JWKS_FILE is set (the keys are then fetched from <issuer>/.well-known/jwks.json)',
      ]
    : [];

/** The service's name in logs and metric dimensions, as serverless.yml names it. */
export const SERVICE_NAME = 'plant-store';

export type KeySource =
  | { kind: 'url'; url: URL; cooldownMs: number; timeoutMs: number }
  | { kind: 'file'; path: string };

export interface Config {
  table: string;
  dynamodb: {
    endpoint: string | undefined;
    region: string;
    maxAttempts: number;
    connectTimeoutMs: number;
    requestTimeoutMs: number;
  };
  telemetry: {
    serviceName: string;
    logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
    metricsNamespace: string;
  };
  auth: {
    issuer: string;
    audience: string;
    keys: KeySource;
    requiredScope: string | undefined;
  };
}

/** The issuer's conventional key-set address (OIDC discovery, Cognito). */
const defaultJwksUrl = (issuer: string) =>
  new URL(`${issuer.replace(/\/+$/, '')}/.well-known/jwks.json`);

export const loadConfig = (env: Record<string, string | undefined>): Config => {
  // an empty variable means "not set": CloudFormation cannot leave a variable out per stage
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = Env.safeParse(given);
  const problems = [
    ...(parsed.error?.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`) ?? []),
    ...crossProblems(given),
  ];
  if (!parsed.success || problems.length > 0) {
    throw new Error(
      `Invalid configuration, fix these environment variables: ${problems.join('; ')}`,
    );
  }
  const e = parsed.data;
  const keys: KeySource = e.AUTH_JWKS_FILE
    ? { kind: 'file', path: e.AUTH_JWKS_FILE }
    : {
        kind: 'url',
        url: e.AUTH_JWKS_URL ? new URL(e.AUTH_JWKS_URL) : defaultJwksUrl(e.AUTH_ISSUER),
        cooldownMs: e.AUTH_JWKS_COOLDOWN_SECONDS * 1000,
        timeoutMs: e.AUTH_JWKS_TIMEOUT_MS,
      };
  return {
    table: e.PLANTS_TABLE,
    dynamodb: {
      endpoint: e.DYNAMODB_ENDPOINT,
      region: e.AWS_REGION,
      maxAttempts: e.DYNAMODB_MAX_ATTEMPTS,
      connectTimeoutMs: e.DYNAMODB_CONNECT_TIMEOUT_MS,
      requestTimeoutMs: e.DYNAMODB_REQUEST_TIMEOUT_MS,
    },
    telemetry: {
      serviceName: SERVICE_NAME,
      logLevel: e.LOG_LEVEL,
      metricsNamespace: e.METRICS_NAMESPACE,
    },
    auth: {
      issuer: e.AUTH_ISSUER,
      audience: e.AUTH_AUDIENCE,
      keys,
      requiredScope: e.AUTH_REQUIRED_SCOPE,
    },
  };
};
