// The cache of verified tokens (lib/auth/tokenCache.ts) must never accept what a full
// verification would refuse: an expired token, a token whose key has left the key set, a token
// used after the key set was due to be fetched again; every other check still runs on every
// request; and a flood of distinct valid tokens cannot grow it without bound.
import { createRemoteJWKSet } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedTokenVerifier } from '#lib/auth/tokenCache.ts';
import {
  CLOCK_TOLERANCE_SECONDS,
  createClaimsVerifier,
  keySetFrom,
  TokenRejectedError,
} from '#lib/auth/tokenVerifier.ts';
import createPlant from '#lib/routes/createPlant.ts';
import { httpApiEvent, invokeHandler } from '../support/events.ts';
import { FakePlantStore } from '../support/fakePlantStore.ts';
import { type JwksServer, startJwksServer } from '../support/jwksServer.ts';
import { quietTelemetry } from '../support/telemetry.ts';
import {
  jwksOf,
  makeKey,
  signToken,
  TEST_AUDIENCE,
  TEST_ISSUER,
  type TestKey,
} from '../support/tokens.ts';

let jwks: JwksServer;
let key: TestKey;
let clock: number;

beforeEach(async () => {
  key = await makeKey('ES256');
  jwks = await startJwksServer(await jwksOf(key));
  clock = Date.now();
});
afterEach(() => jwks.stop());

/** The deployed verifier (remote key set, its cache), on a clock the test moves. */
const verifier = (
  keySet = keySetFrom({ kind: 'url', url: new URL(jwks.url), cooldownMs: 100, timeoutMs: 1000 }),
  maxEntries?: number,
) => {
  let fullVerifications = 0;
  const verifyClaims = createClaimsVerifier({
    issuer: TEST_ISSUER,
    audiences: [TEST_AUDIENCE],
    keySet,
    now: () => new Date(clock),
  });
  const verifyToken = cachedTokenVerifier({
    verifyClaims: (token) => {
      fullVerifications += 1;
      return verifyClaims(token);
    },
    keySet,
    now: () => clock,
    ...(maxEntries ? { maxEntries } : {}),
  });
  return { verifyToken, fullVerifications: () => fullVerifications };
};

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: unknown) =>
      error instanceof TokenRejectedError ? 'rejected' : `failed: ${String(error)}`,
  );

describe('the cache of verified tokens', () => {
  it("verifies a repeat caller's token once, and every new token", async () => {
    const { verifyToken, fullVerifications } = verifier();
    const token = await signToken(key, { subject: 'alice' });

    for (let i = 0; i < 10; i++) expect((await verifyToken(token)).sub).toBe('alice');
    await verifyToken(await signToken(key, { subject: 'bob' }));

    expect(fullVerifications()).toBe(2);
  });

  it('never uses a token past its exp: once beyond the clock tolerance it is a 401', async () => {
    const { verifyToken, fullVerifications } = verifier();
    const token = await signToken(key, { expiresIn: 120 });
    await verifyToken(token);

    // past exp but within the tolerance: verified again (and accepted), not served from memory
    clock += 130_000;
    expect(await rejection(verifyToken(token))).toBe('accepted');
    expect(fullVerifications()).toBe(2);
    // beyond the tolerance
    clock += CLOCK_TOLERANCE_SECONDS * 1000;
    expect(await rejection(verifyToken(token))).toBe('rejected');
  });

  it('refuses a token whose key left the key set, once the key set has been fetched again', async () => {
    const { verifyToken } = verifier();
    const token = await signToken(key);
    expect(await rejection(verifyToken(token))).toBe('accepted');

    // the provider rotates: the old key is gone; a token of the new key makes us fetch the keys
    const next = await makeKey('ES256');
    jwks.serve(await jwksOf(next));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await rejection(verifyToken(await signToken(next)))).toBe('accepted');

    expect(await rejection(verifyToken(token))).toBe('rejected');
  });

  it('fetches a key set past its cache age again before it trusts a remembered token', async () => {
    const keySet = createRemoteJWKSet(new URL(jwks.url), {
      cacheMaxAge: 200,
      cooldownDuration: 50,
    });
    const { verifyToken, fullVerifications } = verifier(keySet);
    const token = await signToken(key);
    await verifyToken(token);
    await verifyToken(token);
    expect(fullVerifications()).toBe(1);

    jwks.serve({ keys: [] });
    await new Promise((resolve) => setTimeout(resolve, 250));

    expect(await rejection(verifyToken(token))).toBe('rejected');
    expect(jwks.fetches()).toBe(2);
  });

  it('stays bounded under a flood of distinct valid tokens', async () => {
    const { verifyToken } = verifier(undefined, 50);
    for (let i = 0; i < 400; i++) await verifyToken(await signToken(key, { subject: `user-${i}` }));

    expect(verifyToken.size).toBe(50);
  });
});

describe('a remembered token through the pipeline', () => {
  it('is still checked for the scope on every request', async () => {
    const { verifyToken } = verifier();
    const handler = createPlant.with({
      ...quietTelemetry(),
      plantStore: new FakePlantStore(),
      verifyToken,
      scopes: { write: 'plants:write' },
    });
    const post = async (token: string, id: number) =>
      (
        await invokeHandler(
          handler,
          httpApiEvent({
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ id, name: 'Fern' }),
          }),
        )
      ).statusCode;
    const reader = await signToken(key, { claims: { scope: 'plants:read' } });
    const writer = await signToken(key, { claims: { scope: 'plants:write' } });

    expect([await post(reader, 1), await post(reader, 2)]).toEqual([403, 403]);
    expect([await post(writer, 3), await post(writer, 4)]).toEqual([200, 200]);
    expect(verifyToken.size).toBe(2);
  });
});

describe('tokens verified while another request fetched new keys', () => {
  /** A cache over `keySet` whose verifications each finish when the test says (`finish(token)`). */
  const heldVerifier = (keySet: object) => {
    const pending = new Map<string, () => void>();
    let verifications = 0;
    const verifyToken = cachedTokenVerifier({
      keySet: keySet as never,
      verifyClaims: (token) => {
        verifications += 1;
        return new Promise((resolve) =>
          pending.set(token, () =>
            resolve({
              caller: { sub: token, scopes: [] },
              expiresAt: Date.now() / 1000 + 600,
              notBefore: undefined,
            }),
          ),
        );
      },
    });
    const finish = async (token: string, verification: Promise<unknown>) => {
      pending.get(token)?.();
      await verification;
    };
    return { verifyToken, finish, verifications: () => verifications };
  };

  it('are not remembered: their keys may already be gone', async () => {
    let keys = { keys: [{ kid: 'old' }] };
    const { verifyToken, finish, verifications } = heldVerifier(
      Object.assign(async () => undefined as never, { jwks: () => keys }),
    );

    const first = verifyToken('a');
    const second = verifyToken('b');
    // b's verification fetched new keys and finished first; then a's finishes
    keys = { keys: [{ kid: 'new' }] };
    await finish('b', second);
    await finish('a', first);

    expect(verifyToken.size).toBe(0);
    await finish('a', verifyToken('a'));
    expect(verifications()).toBe(3);
    expect(verifyToken.size).toBe(1);
  });

  it('are not remembered with a remote key set either, which tells its fetches by the set it fetched', async () => {
    const lastFetched: { jwks?: unknown } = { jwks: { keys: [{ kid: 'old' }] } };
    const { verifyToken, finish } = heldVerifier(
      Object.assign(async () => undefined as never, {
        lastFetched,
        jwks: () => {
          throw new Error('the copy of the key set is not needed');
        },
      }),
    );

    const first = verifyToken('a');
    const second = verifyToken('b');
    lastFetched.jwks = { keys: [{ kid: 'new' }] };
    await finish('b', second);
    await finish('a', first);
    expect(verifyToken.size).toBe(0);

    // a fetch of the same keys again forgets nothing
    await finish('c', verifyToken('c'));
    lastFetched.jwks = { keys: [{ kid: 'new' }] };
    await finish('d', verifyToken('d'));
    expect(verifyToken.size).toBe(2);
  });
});
