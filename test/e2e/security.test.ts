// Bearer auth over real HTTP against a real identity provider's key endpoint: serverless-offline
// runs the bundled handler with AUTH_JWKS_URL pointing at a JWKS served by this test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JwksServer, startJwksServer } from '../support/jwksServer.ts';
import { type LocalService, startLocalService } from '../support/localService.ts';
import { expectResponseMatchesContract } from '../support/openapiResponses.ts';
import { cognitoStyle, jwksOf, makeKey, signToken, type TestKey } from '../support/tokens.ts';

const ISSUER = 'https://idp.e2e.test/';
const AUDIENCE = 'plant-store-e2e';
/** A second app client the stage accepts tokens of, as a smoke test's own (docs/authentication.md). */
const SMOKE_CLIENT = 'smoke-client-e2e';
const COOLDOWN_SECONDS = 2;

let jwks: JwksServer;
let service: LocalService;
let signing: TestKey;
let rotated: TestKey;
let nextId = 1;

const post = async (token: string | undefined, body = { id: nextId++, name: 'Fern' }) => {
  const response = await fetch(`${service.baseUrl}/plants`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expectResponseMatchesContract('POST', '/plants', {
    status: response.status,
    headers: response.headers,
    body: text,
  });
  return {
    status: response.status,
    headers: response.headers,
    body: JSON.parse(text) as Record<string, unknown>,
  };
};
const tokenFrom = (key: TestKey, options: Parameters<typeof signToken>[1] = {}) =>
  signToken(key, { issuer: ISSUER, audience: AUDIENCE, ...options });

beforeAll(async () => {
  signing = await makeKey('RS256');
  rotated = await makeKey('ES256');
  jwks = await startJwksServer(await jwksOf(signing));
  service = await startLocalService(undefined, {
    AUTH_ISSUER: ISSUER,
    AUTH_AUDIENCE: `${AUDIENCE}, ${SMOKE_CLIENT}`,
    AUTH_JWKS_URL: jwks.url,
    AUTH_JWKS_COOLDOWN_SECONDS: String(COOLDOWN_SECONDS),
  });
});
afterAll(async () => {
  await service?.stop();
  await jwks?.stop();
});

describe('bearer auth over HTTP with a remote key set', () => {
  it('accepts tokens of the provider, fetching its keys once for many requests', async () => {
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await post(await tokenFrom(signing))).status);

    expect(statuses).toEqual(Array(10).fill(200));
    expect(jwks.fetches()).toBe(1);
  });

  it.each([
    ['an aud of the second app client', () => tokenFrom(signing, { audience: SMOKE_CLIENT })],
    [
      'a Cognito access token whose client_id is the second app client',
      () => cognitoStyle(signing, { iss: ISSUER, token_use: 'access', client_id: SMOKE_CLIENT }),
    ],
  ])('accepts %s, of the audiences listed in AUTH_AUDIENCE', async (_case, makeToken) => {
    expect((await post(await makeToken())).status).toBe(200);
  });

  it.each([
    ['no token', () => Promise.resolve(undefined), 'Bearer realm="plants"'],
    [
      'an expired token',
      () => tokenFrom(signing, { expiresIn: -3600, notBefore: -7200 }),
      'Bearer realm="plants", error="invalid_token"',
    ],
    [
      'a token for an audience not in the list',
      () => tokenFrom(signing, { audience: 'other-api' }),
      'Bearer realm="plants", error="invalid_token"',
    ],
    [
      'a token from another issuer',
      () => tokenFrom(signing, { issuer: 'https://evil.test/' }),
      'Bearer realm="plants", error="invalid_token"',
    ],
  ])('answers 401 to %s', async (_case, makeToken, challenge) => {
    const response = await post(await makeToken());

    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(challenge);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual({ error: 401, message: expect.any(String) });
  });

  it('refetches the keys once when a token names a new key (a rotation), then caches them', async () => {
    const before = jwks.fetches();
    jwks.serve(await jwksOf(signing, rotated));
    // past the cooldown since the first fetch, so the new kid may trigger a refetch
    await new Promise((r) => setTimeout(r, COOLDOWN_SECONDS * 1000 + 200));

    expect((await post(await tokenFrom(rotated))).status).toBe(200);
    expect((await post(await tokenFrom(rotated))).status).toBe(200);
    expect(jwks.fetches()).toBe(before + 1);
  });

  it('answers 503 with Retry-After when the keys for a new kid cannot be fetched, and keeps serving cached keys', async () => {
    await jwks.stop();
    await new Promise((r) => setTimeout(r, COOLDOWN_SECONDS * 1000 + 200));

    const unknownKey = await makeKey('ES256');
    const outage = await post(await tokenFrom(unknownKey));
    expect(outage.status).toBe(503);
    expect(outage.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(outage.body).toEqual({ error: 503, message: expect.stringMatching(/retry/i) });

    expect((await post(await tokenFrom(signing))).status).toBe(200);
  });
});
