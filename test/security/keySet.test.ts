// The remote key set as the handler uses it: fetched once, refreshed for a new kid at most once
// per cooldown (a flood of made-up kids cannot hammer the provider), and a provider outage is
// our 503, not the caller's 401.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keySetFrom } from '#lib/auth/tokenVerifier.ts';
import createPlant from '#lib/routes/createPlant.ts';
import { httpApiEvent, invokeHandler } from '../support/events.ts';
import { FakePlantStore } from '../support/fakePlantStore.ts';
import { type JwksServer, startJwksServer } from '../support/jwksServer.ts';
import { quietTelemetry } from '../support/telemetry.ts';
import { jwksOf, makeKey, signToken, type TestKey, verifierFor } from '../support/tokens.ts';

const COOLDOWN_MS = 500;

let jwks: JwksServer;
let key: TestKey;
let handler: ReturnType<typeof createPlant.with>;

const post = async (token: string) => {
  const event = httpApiEvent({
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{"id":1,"name":"Fern"}',
  });
  const response = await invokeHandler(handler, event);
  return { status: response.statusCode, headers: response.headers ?? {} };
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(async () => {
  key = await makeKey('ES256');
  jwks = await startJwksServer(await jwksOf(key));
  // a fresh key set per test, as a fresh Lambda container has
  const verifyToken = verifierFor(
    keySetFrom({
      kind: 'url',
      url: new URL(jwks.url),
      cooldownMs: COOLDOWN_MS,
      timeoutMs: 1000,
    }),
  );
  handler = createPlant.with({
    ...quietTelemetry(),
    plantStore: new FakePlantStore(),
    verifyToken,
  });
});
afterEach(() => jwks.stop());

describe('the remote key set', () => {
  it('is fetched once for many requests', async () => {
    for (let i = 0; i < 20; i++) expect((await post(await signToken(key))).status).toBe(200);

    expect(jwks.fetches()).toBe(1);
  });

  it('is fetched once more for a token with a new kid after a rotation', async () => {
    await post(await signToken(key));
    const rotated = await makeKey('RS256');
    jwks.serve(await jwksOf(key, rotated));
    await pause(COOLDOWN_MS + 50);

    expect((await post(await signToken(rotated))).status).toBe(200);
    expect((await post(await signToken(rotated))).status).toBe(200);
    expect(jwks.fetches()).toBe(2);
  });

  it('is not refetched for a flood of unknown kids within the cooldown, and each gets 401', async () => {
    await post(await signToken(key));
    await pause(COOLDOWN_MS + 50);
    const forger = await makeKey('ES256');

    const statuses = [];
    for (let i = 0; i < 30; i++)
      statuses.push((await post(await signToken({ ...forger, kid: `made-up-${i}` }))).status);

    expect(statuses).toEqual(Array(30).fill(401));
    // the first unknown kid may refetch (the cooldown had passed); the other 29 may not
    expect(jwks.fetches()).toBe(2);
  });

  it('answers 503 with Retry-After when the provider is down for a key not yet cached', async () => {
    await jwks.stop();

    const response = await post(await signToken(key));

    expect(response.status).toBe(503);
    expect(response.headers['Retry-After']).toMatch(/^[1-9]\d*$/);
  });

  it('keeps accepting cached keys while the provider is down', async () => {
    expect((await post(await signToken(key))).status).toBe(200);
    await jwks.stop();

    expect((await post(await signToken(key))).status).toBe(200);
  });
});
