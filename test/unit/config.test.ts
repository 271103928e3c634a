import { describe, expect, it } from 'vitest';
import { authSettings } from '#lib/config/auth.ts';
import { endpointUrlSettings } from '#lib/config/endpoints.ts';
import { loadConfig as loadSettings } from '#lib/config/load.ts';
import { webhooksStoreSettings } from '#lib/config/store.ts';
import { telemetrySettings } from '#lib/config/telemetry.ts';
import { attemptSettings, MAX_ATTEMPT_TIMEOUT_MS } from '#lib/config/webhook.ts';
import {
  type StoreFunctionConfig as Config,
  loadStoreFunctionConfig as loadConfig,
} from '../support/config.ts';

const minimal = {
  PLANTS_TABLE: 'plants-dev',
  AUTH_ISSUER: 'https://issuer.example/',
  AUTH_AUDIENCE: 'plant-store',
};

const keyUrl = (config: Config): string => {
  expect(config.auth.keys.kind).toBe('url');
  return config.auth.keys.kind === 'url' ? config.auth.keys.url.href : '';
};

/** The message of the error loadConfig throws, or a failure when it does not throw. */
const configError = (env: Record<string, string | undefined>): string => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return (error as Error).message;
  }
  expect.fail('loadConfig accepted an invalid environment');
};

describe('loadConfig', () => {
  it('reads a valid minimal environment, with defaults for everything optional', () => {
    const config = loadConfig(minimal);

    expect(config.store.table).toBe('plants-dev');
    expect(config.store.dynamodb).toEqual({
      endpoint: undefined,
      region: 'us-east-1',
      maxAttempts: 3,
      connectTimeoutMs: 500,
      requestTimeoutMs: 1000,
    });
    expect(config.auth.issuer).toBe('https://issuer.example/');
    expect(config.auth.audiences).toEqual(['plant-store']);
    expect(config.auth.scopes).toEqual({ read: undefined, write: undefined });
    expect(keyUrl(config)).toBe('https://issuer.example/.well-known/jwks.json');
  });

  it('ignores variables it does not know', () => {
    const config = loadConfig({ ...minimal, PATH: '/usr/bin', HOME: '/root' });
    expect(config.store.table).toBe('plants-dev');
  });

  it('reads every optional variable', () => {
    const config = loadConfig({
      ...minimal,
      DYNAMODB_ENDPOINT: 'http://localhost:8000',
      AWS_REGION: 'eu-west-1',
      DYNAMODB_MAX_ATTEMPTS: '5',
      DYNAMODB_CONNECT_TIMEOUT_MS: '250',
      DYNAMODB_REQUEST_TIMEOUT_MS: '1500',
      AUTH_JWKS_URL: 'https://keys.example/tenant/jwks.json',
      AUTH_READ_SCOPE: 'plants:read',
      AUTH_WRITE_SCOPE: 'plants:write',
    });

    expect(config.store.dynamodb).toEqual({
      endpoint: 'http://localhost:8000',
      region: 'eu-west-1',
      maxAttempts: 5,
      connectTimeoutMs: 250,
      requestTimeoutMs: 1500,
    });
    expect(keyUrl(config)).toBe('https://keys.example/tenant/jwks.json');
    expect(config.auth.scopes).toEqual({ read: 'plants:read', write: 'plants:write' });
  });

  it.each([
    ['https://issuer.example/', 'https://issuer.example/.well-known/jwks.json'],
    ['https://issuer.example', 'https://issuer.example/.well-known/jwks.json'],
    ['https://issuer.example//', 'https://issuer.example/.well-known/jwks.json'],
    ['https://login.example/tenant-1', 'https://login.example/tenant-1/.well-known/jwks.json'],
    [
      'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Pool/',
      'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Pool/.well-known/jwks.json',
    ],
  ])('derives the JWKS URL from the issuer %s', (issuer, expected) => {
    expect(keyUrl(loadConfig({ ...minimal, AUTH_ISSUER: issuer }))).toBe(expected);
  });

  it('accepts an issuer that is not a URL when the JWKS URL is given', () => {
    const config = loadConfig({
      ...minimal,
      AUTH_ISSUER: 'plant-store-issuer',
      AUTH_JWKS_URL: 'https://keys.example/jwks.json',
    });
    expect(config.auth.issuer).toBe('plant-store-issuer');
    expect(keyUrl(config)).toBe('https://keys.example/jwks.json');
  });

  it('uses AUTH_JWKS_FILE when set, even with AUTH_JWKS_URL also set', () => {
    const config = loadConfig({
      ...minimal,
      AUTH_JWKS_FILE: '/var/local/jwks.json',
      AUTH_JWKS_URL: 'https://keys.example/jwks.json',
    });
    expect(config.auth.keys).toEqual({ kind: 'file', path: '/var/local/jwks.json' });
  });

  it('treats empty strings as unset', () => {
    const config = loadConfig({
      ...minimal,
      DYNAMODB_ENDPOINT: '',
      AWS_REGION: '',
      DYNAMODB_MAX_ATTEMPTS: '',
      DYNAMODB_CONNECT_TIMEOUT_MS: '',
      DYNAMODB_REQUEST_TIMEOUT_MS: '',
      AUTH_JWKS_URL: '',
      AUTH_JWKS_FILE: '',
      AUTH_READ_SCOPE: '',
      AUTH_WRITE_SCOPE: '',
      AUTH_REQUIRED_SCOPE: '',
    });

    expect(config).toEqual(loadConfig(minimal));
    expect(config.store.dynamodb.endpoint).toBeUndefined();
    expect(config.store.dynamodb.region).toBe('us-east-1');
    expect(config.auth.scopes).toEqual({ read: undefined, write: undefined });
    expect(keyUrl(config)).toBe('https://issuer.example/.well-known/jwks.json');
  });

  it('treats an empty required variable as missing', () => {
    const message = configError({ ...minimal, PLANTS_TABLE: '' });
    expect(message).toMatch(/PLANTS_TABLE/);
  });

  it('reads AUTH_AUDIENCE as a list: each app client whose tokens are accepted', () => {
    const config = loadConfig({ ...minimal, AUTH_AUDIENCE: ' web-client ,smoke-client ' });
    expect(config.auth.audiences).toEqual(['web-client', 'smoke-client']);
  });

  it.each(['web-client,,smoke-client', 'web-client,', ',', ', ,'])(
    'refuses AUTH_AUDIENCE=%s, an empty entry, saying what to write',
    (value) => {
      expect(configError({ ...minimal, AUTH_AUDIENCE: value })).toBe(
        'Invalid configuration, fix these environment variables: AUTH_AUDIENCE must be audiences separated by commas, none empty: write "<web client id>,<smoke client id>"',
      );
    },
  );

  it('lists every missing required variable in one error', () => {
    const message = configError({});
    for (const name of ['PLANTS_TABLE', 'AUTH_ISSUER', 'AUTH_AUDIENCE']) {
      expect(message).toContain(name);
    }
  });

  it('lists every bad variable by name in one error, and only those', () => {
    const message = configError({
      PLANTS_TABLE: '',
      AUTH_ISSUER: 'https://issuer.example/',
      AUTH_AUDIENCE: 'plant-store',
      AWS_REGION: 'eu-west-1',
      DYNAMODB_ENDPOINT: 'localhost-without-scheme',
      DYNAMODB_MAX_ATTEMPTS: 'three',
      DYNAMODB_CONNECT_TIMEOUT_MS: '0',
      DYNAMODB_REQUEST_TIMEOUT_MS: '1.5',
      AUTH_JWKS_URL: 'file:///etc/jwks.json',
    });

    for (const name of [
      'PLANTS_TABLE',
      'DYNAMODB_ENDPOINT',
      'DYNAMODB_MAX_ATTEMPTS',
      'DYNAMODB_CONNECT_TIMEOUT_MS',
      'DYNAMODB_REQUEST_TIMEOUT_MS',
      'AUTH_JWKS_URL',
    ]) {
      expect(message).toContain(name);
    }
    for (const name of ['AUTH_ISSUER', 'AUTH_AUDIENCE', 'AWS_REGION']) {
      expect(message).not.toContain(name);
    }
  });

  // Number() would read these as numbers: in a setting they are typing mistakes
  it.each(['0x10', '1e3', '+5', '5.0'])(
    'rejects DYNAMODB_MAX_ATTEMPTS=%s (decimal digits only)',
    (value) => {
      expect(configError({ ...minimal, DYNAMODB_MAX_ATTEMPTS: value })).toBe(
        'Invalid configuration, fix these environment variables: DYNAMODB_MAX_ATTEMPTS must be a positive integer',
      );
    },
  );

  it.each([
    // once a bare "Invalid URL" crash that named no variable
    ['AUTH_JWKS_URL', 'not a url', 'must be an https URL (http only for localhost)'],
    // the URL parser reads these too; here they are typing mistakes
    [
      'AUTH_JWKS_URL',
      'https:keys.example/jwks.json',
      'must be an https URL (http only for localhost)',
    ],
    [
      'AUTH_JWKS_URL',
      'https://keys.example/jw ks.json',
      'must be an https URL (http only for localhost)',
    ],
    ['DYNAMODB_ENDPOINT', 'http:localhost:8000', 'must be an http(s) URL'],
  ])('names %s=%s and says what it must be', (name, value, rule) => {
    expect(configError({ ...minimal, [name]: value })).toBe(
      `Invalid configuration, fix these environment variables: ${name} ${rule}`,
    );
  });

  it.each(['-1', '0', '2.5', 'ten'])('rejects DYNAMODB_MAX_ATTEMPTS=%s', (value) => {
    expect(configError({ ...minimal, DYNAMODB_MAX_ATTEMPTS: value })).toContain(
      'DYNAMODB_MAX_ATTEMPTS',
    );
  });

  // Without AUTH_JWKS_URL or AUTH_JWKS_FILE the key set's address comes from the issuer, so an
  // issuer that is not a URL is a configuration problem like any other: named, not a bare TypeError.
  it('names AUTH_ISSUER when it is not a URL and no key source is given', () => {
    const message = configError({ ...minimal, AUTH_ISSUER: 'plant-store-issuer' });
    expect(message).toContain('AUTH_ISSUER');
  });

  it.each([
    ['a scope with spaces', { AUTH_WRITE_SCOPE: 'plants:read plants:write' }, 'AUTH_WRITE_SCOPE'],
    [
      'the retired AUTH_REQUIRED_SCOPE, which would otherwise be ignored',
      { AUTH_REQUIRED_SCOPE: 'plants:write' },
      'AUTH_WRITE_SCOPE',
    ],
    ['a blank table name', { PLANTS_TABLE: '   ' }, 'PLANTS_TABLE'],
    [
      'a key set over plain http',
      { AUTH_JWKS_URL: 'http://keys.example/jwks.json' },
      'AUTH_JWKS_URL',
    ],
  ])('rejects %s', (_case, env, variable) => {
    expect(configError({ ...minimal, ...env })).toContain(variable);
  });

  it('refuses an http issuer whose keys would be fetched in clear text, unless it is this machine', () => {
    expect(configError({ ...minimal, AUTH_ISSUER: 'http://idp.example/' })).toContain(
      'AUTH_ISSUER',
    );
    expect(keyUrl(loadConfig({ ...minimal, AUTH_ISSUER: 'http://127.0.0.1:8080/' }))).toBe(
      'http://127.0.0.1:8080/.well-known/jwks.json',
    );
    expect(
      keyUrl(
        loadConfig({
          ...minimal,
          AUTH_ISSUER: 'http://idp.example/',
          AUTH_JWKS_URL: 'https://keys.example/jwks.json',
        }),
      ),
    ).toBe('https://keys.example/jwks.json');
  });

  it('accepts a key set over plain http on this machine (tests, local identity providers)', () => {
    const config = loadConfig({ ...minimal, AUTH_JWKS_URL: 'http://127.0.0.1:9000/jwks.json' });
    expect(keyUrl(config)).toBe('http://127.0.0.1:9000/jwks.json');
  });

  it('reports a non-URL issuer together with the other bad variables', () => {
    const message = configError({
      ...minimal,
      AUTH_ISSUER: 'not-a-url',
      DYNAMODB_MAX_ATTEMPTS: 'x',
    });
    expect(message).toContain('AUTH_ISSUER');
    expect(message).toContain('DYNAMODB_MAX_ATTEMPTS');
  });
});

describe('a function reads only the settings it uses', () => {
  it('needs no table when it does not use the store', () => {
    const config = loadSettings(
      { AUTH_ISSUER: 'https://issuer.example/', AUTH_AUDIENCE: 'plant-store' },
      { auth: authSettings, telemetry: telemetrySettings },
    );
    expect(Object.keys(config).sort()).toEqual(['auth', 'telemetry']);
    expect(config.auth.audiences).toEqual(['plant-store']);
  });

  it('needs no auth settings when it authenticates nobody', () => {
    expect(loadSettings({}, { telemetry: telemetrySettings }).telemetry.logLevel).toBe('INFO');
  });

  it('still lists the problems of every group it reads, and only those', () => {
    const message = configError({ LOG_LEVEL: 'LOUD' });
    for (const name of ['PLANTS_TABLE', 'AUTH_ISSUER', 'LOG_LEVEL'])
      expect(message).toContain(name);
    expect(() =>
      loadSettings({ PLANTS_TABLE: '' }, { telemetry: telemetrySettings }),
    ).not.toThrow();
  });
});

describe("the webhook endpoints' store settings", () => {
  it('name their own table, and talk to DynamoDB as the plants store does', () => {
    const env = { ...minimal, WEBHOOKS_TABLE: 'webhooks-dev', DYNAMODB_MAX_ATTEMPTS: '5' };
    const { endpoints } = loadSettings(env, { endpoints: webhooksStoreSettings });

    expect(endpoints).toEqual({ table: 'webhooks-dev', dynamodb: loadConfig(env).store.dynamodb });
  });

  it('need WEBHOOKS_TABLE, and say what it is', () => {
    expect(() => loadSettings(minimal, { endpoints: webhooksStoreSettings })).toThrow(
      /WEBHOOKS_TABLE is required: the DynamoDB table of the callers' webhook endpoints/,
    );
  });
});

describe("where a caller's endpoint may point", () => {
  const allowPrivate = (WEBHOOK_ALLOW_PRIVATE_URLS: string | undefined) =>
    loadSettings({ WEBHOOK_ALLOW_PRIVATE_URLS }, { urls: endpointUrlSettings }).urls.allowPrivate;

  it('reads WEBHOOK_ALLOW_PRIVATE_URLS trimmed, as every other setting, an empty one as unset', () => {
    expect(allowPrivate(' true\n')).toBe(true);
    expect(allowPrivate('\tfalse ')).toBe(false);
    expect(allowPrivate('')).toBe(false);
    expect(allowPrivate(undefined)).toBe(false);
  });

  it('refuses WEBHOOK_ALLOW_PRIVATE_URLS other than true or false, or blank', () => {
    expect(() => allowPrivate('yes')).toThrow(
      'WEBHOOK_ALLOW_PRIVATE_URLS must be one of true, false',
    );
    expect(() => allowPrivate('  ')).toThrow(
      'WEBHOOK_ALLOW_PRIVATE_URLS must not be blank: leave it unset instead',
    );
  });
});

describe("the webhook attempts' settings", () => {
  it('take a WEBHOOK_TIMEOUT_MS up to a third of the functions’ 30 s timeout, and refuse a longer one', () => {
    const attempts = (WEBHOOK_TIMEOUT_MS: string) =>
      loadSettings({ WEBHOOK_TIMEOUT_MS }, { attempts: attemptSettings }).attempts.timeoutMs;
    expect(attempts(String(MAX_ATTEMPT_TIMEOUT_MS))).toBe(10_000);
    expect(() => attempts('10001')).toThrow(
      'Invalid configuration, fix these environment variables: WEBHOOK_TIMEOUT_MS must be a whole number from 1 to 10000',
    );
  });
});

describe('telemetry settings', () => {
  it('default to INFO logs and the PlantStore metrics namespace', () => {
    expect(loadConfig(minimal).telemetry).toEqual({
      serviceName: 'plant-store',
      logLevel: 'INFO',
      metricsNamespace: 'PlantStore',
      coldStarts: true,
    });
  });

  it('count no cold start in a container Lambda started in advance', () => {
    const initialized = (type: string) =>
      loadConfig({ ...minimal, AWS_LAMBDA_INITIALIZATION_TYPE: type }).telemetry.coldStarts;
    expect(initialized('provisioned-concurrency')).toBe(false);
    expect(initialized('on-demand')).toBe(true);
  });

  it('read LOG_LEVEL and METRICS_NAMESPACE, and reject an unknown level by name', () => {
    expect(
      loadConfig({ ...minimal, LOG_LEVEL: 'DEBUG', METRICS_NAMESPACE: 'Plants/Prod' }).telemetry,
    ).toMatchObject({
      logLevel: 'DEBUG',
      metricsNamespace: 'Plants/Prod',
    });
    expect(configError({ ...minimal, LOG_LEVEL: 'LOUD' })).toContain('LOG_LEVEL');
  });
});
