import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, errors as joseErrors } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KeySetUnavailableError,
  keySetFrom,
  TokenRejectedError,
  type VerifyToken,
} from '#lib/auth/tokenVerifier.ts';
import {
  acceptableClaims,
  cognitoStyle,
  hmacToken,
  jwksOf,
  makeKey,
  signClaims,
  signToken,
  TEST_AUDIENCE,
  type TestKey,
  tamperedToken,
  unsecuredToken,
  verifierFor,
  verifierTrusting,
} from '../support/tokens.ts';

const es256 = await makeKey('ES256');
const rs256 = await makeKey('RS256');
const stranger = await makeKey('ES256');
const verify = await verifierTrusting(es256, rs256);
const SMOKE_CLIENT = 'smoke-client';
/** A deployment's AUTH_AUDIENCE of two app clients: its web app's and its smoke test's. */
const verifySeveral = verifierFor(createLocalJWKSet(await jwksOf(es256)), [
  TEST_AUDIENCE,
  SMOKE_CLIENT,
]);

/** The error verify() rejects with, or a failure when it accepts the token. */
const rejection = async (verifier: VerifyToken, token: string): Promise<Error> => {
  try {
    await verifier(token);
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  }
  return expect.fail('the token was accepted');
};

const expectTokenRejected = async (token: string, verifier: VerifyToken = verify) => {
  const error = await rejection(verifier, token);
  expect(error).toBeInstanceOf(TokenRejectedError);
  expect(error).not.toBeInstanceOf(KeySetUnavailableError);
  if (token !== '') expect(error.message).not.toContain(token);
  return error;
};

/** A token signed with a key that is in the JWKS, without exp or sub as asked. */
const tokenWithout = (claim: 'sub' | 'exp') => {
  const { [claim]: _, ...claims } = acceptableClaims();
  return signClaims(es256, claims);
};

/**
 * A validly signed ES256 token of exactly `length` characters. ES256 signatures have a fixed
 * length; a padding claim and the kid's length (one JWKS entry per kid variant) fill the rest.
 */
const tokenOfLength = async (length: number) => {
  const variants: TestKey[] = [0, 1, 2, 3].map((n) => ({ ...es256, kid: `len${'k'.repeat(n)}` }));
  const verifier = await verifierTrusting(...variants);
  for (const variant of variants) {
    const probe = await signToken(variant, { claims: { pad: '' } });
    const room = length - probe.length;
    for (let pad = Math.max(0, Math.floor((room * 3) / 4) - 3); pad < (room * 3) / 4 + 3; pad++) {
      const token = await signToken(variant, { claims: { pad: 'p'.repeat(pad) } });
      if (token.length === length) return { token, verifier };
    }
  }
  throw new Error(`could not build a token of ${length} characters`);
};

describe('the token verifier', () => {
  it.each([
    ['ES256', es256],
    ['RS256', rs256],
  ])('accepts an %s token and returns the caller as {sub, scopes}', async (_, key) => {
    const token = await signToken(key, {
      subject: 'auth0|alice',
      claims: { scope: 'plants:read plants:write' },
    });

    await expect(verify(token)).resolves.toStrictEqual({
      sub: 'auth0|alice',
      scopes: ['plants:read', 'plants:write'],
    });
  });

  it.each([
    ['no scope claim', {}, []],
    [
      'scope with extra spaces',
      { scope: ' plants:read   plants:write ' },
      ['plants:read', 'plants:write'],
    ],
    ['scp as a string', { scp: 'plants:write plants:read' }, ['plants:write', 'plants:read']],
    [
      'scp as an array',
      { scp: ['plants:write', 42, 'plants:read'] },
      ['plants:write', 'plants:read'],
    ],
    ['an empty scope', { scope: '' }, []],
  ])('reads the scopes from %s', async (_, claims, scopes) => {
    const token = await signToken(es256, { claims });
    await expect(verify(token)).resolves.toStrictEqual({ sub: 'user-1', scopes });
  });

  describe('rejects the token (TokenRejectedError)', () => {
    it.each<[string, () => Promise<string> | string]>([
      ['a garbage string', () => 'not-a-jwt'],
      ['three garbage segments', () => 'abc.def.ghi'],
      ['an empty string', () => ''],
      ['an expired token', () => signToken(es256, { expiresIn: -3600, notBefore: -7200 })],
      ['a token not valid yet', () => signToken(es256, { notBefore: 3600, expiresIn: 7200 })],
      ['a token from another issuer', () => signToken(es256, { issuer: 'https://evil.test/' })],
      ['a token for another audience', () => signToken(es256, { audience: 'other-api' })],
      ['a token signed by an unknown key', () => signToken(stranger)],
      ['another key under a trusted kid', () => signToken({ ...stranger, kid: es256.kid })],
      ['an HS256 token', () => hmacToken()],
      ['an unsecured (alg none) token', () => unsecuredToken()],
      ['a tampered payload', async () => tamperedToken(await signToken(es256))],
      ['a token without sub', () => tokenWithout('sub')],
      ['a token without exp', () => tokenWithout('exp')],
      ['a token with an empty sub', () => signToken(es256, { subject: '' })],
      [
        'a token whose sub is not a string',
        () => signClaims(es256, acceptableClaims({ sub: 42 as unknown as string })),
      ],
    ])('%s', async (_, makeToken) => {
      await expectTokenRejected(await makeToken());
    });

    it('a PS256 token, though its key is in the JWKS (not on the allow-list)', async () => {
      const ps256 = await makeKey('PS256');
      const verifier = await verifierTrusting(ps256);
      const token = await signClaims(ps256, acceptableClaims());

      const error = await expectTokenRejected(token, verifier);
      expect(error.message).toMatch(/algorithm/);
    });

    it('says why: expired, missing sub', async () => {
      const expired = await expectTokenRejected(
        await signToken(es256, { expiresIn: -3600, notBefore: -7200 }),
      );
      expect(expired.message).toMatch(/expired/);
      const noSub = await expectTokenRejected(await tokenWithout('sub'));
      expect(noSub.message).toMatch(/sub/);
    });
  });

  describe('allows 60 s of clock skew, no more', () => {
    it('accepts a token that expired 30 s ago', async () => {
      const token = await signToken(es256, { expiresIn: -30, notBefore: -600 });
      await expect(verify(token)).resolves.toMatchObject({ sub: 'user-1' });
    });

    it('rejects a token that expired 90 s ago', async () => {
      const error = await expectTokenRejected(
        await signToken(es256, { expiresIn: -90, notBefore: -600 }),
      );
      expect(error.message).toMatch(/expired/);
    });

    it('accepts a token valid from 30 s from now', async () => {
      const token = await signToken(es256, { notBefore: 30 });
      await expect(verify(token)).resolves.toMatchObject({ sub: 'user-1' });
    });

    it('rejects a token valid from 90 s from now', async () => {
      await expectTokenRejected(await signToken(es256, { notBefore: 90 }));
    });
  });

  describe('bounds the token length at 8192 characters', () => {
    it('accepts a validly signed token of exactly 8192 characters', async () => {
      const { token, verifier } = await tokenOfLength(8192);
      await expect(verifier(token)).resolves.toMatchObject({ sub: 'user-1' });
    });

    it('rejects a validly signed token of 8193 characters for its length', async () => {
      const { token, verifier } = await tokenOfLength(8193);
      const error = await expectTokenRejected(token, verifier);
      expect(error.message).toMatch(/too long/);
    });
  });

  describe('blames the key provider (KeySetUnavailableError) when the keys cannot be had', () => {
    it.each<[string, unknown]>([
      ['a network failure', new TypeError('fetch failed')],
      ['a JWKS timeout', new joseErrors.JWKSTimeout()],
      ['an unparsable JWKS', new joseErrors.JOSEError('Failed to parse the JSON Web Key Set')],
    ])('%s', async (_, failure) => {
      const verifier = verifierFor(() => Promise.reject(failure));
      const error = await rejection(verifier, await signToken(es256));

      expect(error).toBeInstanceOf(KeySetUnavailableError);
      expect(error).not.toBeInstanceOf(TokenRejectedError);
      expect(error.cause).toBe(failure);
    });

    it('still rejects a disallowed algorithm as the token’s fault, without asking for keys', async () => {
      let asked = false;
      const verifier = verifierFor(() => {
        asked = true;
        return Promise.reject(new TypeError('fetch failed'));
      });

      await expectTokenRejected(unsecuredToken(), verifier);
      await expectTokenRejected(await hmacToken(), verifier);
      expect(asked).toBe(false);
    });
  });
});

describe('a failure that is neither the token nor the key provider', () => {
  it('is passed on unchanged (a fault of ours, answered 500), not blamed on the provider', async () => {
    const bug = new RangeError('a bug in our key lookup');
    const verifier = verifierFor(() => Promise.reject(bug));

    await expect(verifier(await signToken(es256))).rejects.toBe(bug);
  });
});

describe('keySetFrom', () => {
  describe('a JWKS file', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'plant-store-jwks-'));
    });
    afterAll(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    it('verifies tokens signed by the keys in the file', async () => {
      const path = join(dir, 'jwks.json');
      writeFileSync(path, JSON.stringify(await jwksOf(es256)));
      const verifier = verifierFor(keySetFrom({ kind: 'file', path }));

      await expect(verifier(await signToken(es256))).resolves.toMatchObject({ sub: 'user-1' });
      await expectTokenRejected(await signToken(rs256), verifier);
    });
  });

  describe('a JWKS URL', () => {
    let server: Server;
    let base: string;
    let reply: { status: number; body: string };

    beforeAll(async () => {
      server = createServer((_, response) => {
        response.writeHead(reply.status, { 'content-type': 'application/json' });
        response.end(reply.body);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    const remoteVerifier = (path: string) =>
      verifierFor(
        keySetFrom({ kind: 'url', url: new URL(path, base), cooldownMs: 30_000, timeoutMs: 2000 }),
      );

    it('verifies tokens signed by the served keys', async () => {
      reply = { status: 200, body: JSON.stringify(await jwksOf(es256, rs256)) };
      const verifier = remoteVerifier('/ok.json');

      await expect(verifier(await signToken(rs256))).resolves.toMatchObject({ sub: 'user-1' });
      await expectTokenRejected(await signToken(stranger), verifier);
    });

    it.each([
      ['a 500 reply', 500, '{"message":"oops"}'],
      ['a reply that is not JSON', 200, '<html>maintenance</html>'],
      ['a reply that is not a JWKS', 200, '{"keys":"none"}'],
    ])('reports %s as KeySetUnavailableError', async (_, status, body) => {
      reply = { status, body };
      const error = await rejection(remoteVerifier(`/bad-${status}.json`), await signToken(es256));

      expect(error).toBeInstanceOf(KeySetUnavailableError);
    });

    it('reports an unreachable key server as KeySetUnavailableError', async () => {
      // port 9 (discard) on the loopback: refused, or at worst timed out by the 2 s fetch limit
      const verifier = verifierFor(
        keySetFrom({
          kind: 'url',
          url: new URL('http://127.0.0.1:9/jwks.json'),
          cooldownMs: 30_000,
          timeoutMs: 2000,
        }),
      );
      const error = await rejection(verifier, await signToken(es256));

      expect(error).toBeInstanceOf(KeySetUnavailableError);
    });
  });
});

describe('the audience', () => {
  it('accepts an aud array that names this API', async () => {
    const token = await signToken(es256, { claims: { aud: ['other-api', TEST_AUDIENCE] } });
    await expect(verify(token)).resolves.toMatchObject({ sub: 'user-1' });
  });

  it('accepts a Cognito access token whose client_id is the audience', async () => {
    const token = await cognitoStyle(es256, { token_use: 'access', client_id: TEST_AUDIENCE });
    await expect(verify(token)).resolves.toMatchObject({ sub: 'user-1' });
  });

  describe("of a deployment with several app clients (a web one, the smoke test's)", () => {
    it.each([
      ['an aud of the first', () => signToken(es256, { audience: TEST_AUDIENCE })],
      ['an aud of the second', () => signToken(es256, { audience: SMOKE_CLIENT })],
      [
        'an aud array naming the second',
        () => signToken(es256, { claims: { aud: ['x', SMOKE_CLIENT] } }),
      ],
      [
        'a Cognito access token whose client_id is the second',
        () => cognitoStyle(es256, { token_use: 'access', client_id: SMOKE_CLIENT }),
      ],
    ])('accepts %s', async (_case, makeToken) => {
      await expect(verifySeveral(await makeToken())).resolves.toMatchObject({ sub: 'user-1' });
    });

    it.each([
      ['an aud of a third', () => signToken(es256, { audience: 'third-client' })],
      [
        'a Cognito access token whose client_id is a third',
        () => cognitoStyle(es256, { token_use: 'access', client_id: 'third-client' }),
      ],
      [
        'an aud of a third, whatever its client_id (the aud decides)',
        () => signToken(es256, { audience: 'third-client', claims: { client_id: SMOKE_CLIENT } }),
      ],
      [
        'a Cognito ID token without aud whose client_id is the second',
        () => cognitoStyle(es256, { token_use: 'id', client_id: SMOKE_CLIENT }),
      ],
    ])('rejects %s', async (_case, makeToken) => {
      const error = await expectTokenRejected(await makeToken(), verifySeveral);
      expect(error.message).toBe('the token\'s "aud" claim is not accepted');
    });
  });

  it.each([
    ['another client_id', { token_use: 'access', client_id: 'other-client' }],
    [
      'a client_id on a token that is not an access token',
      { token_use: 'id', client_id: TEST_AUDIENCE },
    ],
    ['neither aud nor client_id', { token_use: 'access' }],
  ])('rejects a token without aud that has %s', async (_case, claims) => {
    const error = await expectTokenRejected(await cognitoStyle(es256, claims));
    expect(error.message).toMatch(/aud/);
  });
});
