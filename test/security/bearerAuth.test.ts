// The attacks that break JWT services, against the handler with its real store on DynamoDB Local:
// each gets 401 with the right challenge, and nothing is stored.
import { createLocalJWKSet, exportSPKI } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { keySetFrom } from '#lib/auth/tokenVerifier.ts';
import createPlant from '#lib/routes/createPlant.ts';
import {
  createDynamoPlantStore,
  createTestTable,
  localDocumentClient,
} from '../support/dynamodbTables.ts';
import { httpApiEvent, invokeHandler } from '../support/events.ts';
import { type JwksServer, startJwksServer } from '../support/jwksServer.ts';
import { quietTelemetry } from '../support/telemetry.ts';
import {
  acceptableClaims,
  hmacToken,
  jwksOf,
  makeKey,
  signToken,
  type TestKey,
  tamperedToken,
  unsecuredToken,
  verifierFor,
} from '../support/tokens.ts';

const endpoint = inject('dynamodbEndpoint');
const NO_TOKEN = 'Bearer realm="plants"';
const INVALID_TOKEN = 'Bearer realm="plants", error="invalid_token"';

let table: Awaited<ReturnType<typeof createTestTable>>;
let jwks: JwksServer;
let rsa: TestKey;
let stranger: TestKey;
let handler: ReturnType<typeof createPlant.with>;
let scopedHandler: ReturnType<typeof createPlant.with>;

beforeAll(async () => {
  table = await createTestTable(endpoint);
  rsa = await makeKey('RS256');
  stranger = await makeKey('RS256');
  jwks = await startJwksServer(await jwksOf(rsa));
  const verifyToken = verifierFor(
    keySetFrom({
      kind: 'url',
      url: new URL(jwks.url),
      cooldownMs: 30_000,
      timeoutMs: 2000,
    }),
  );
  const plantStore = createDynamoPlantStore({
    client: localDocumentClient(endpoint),
    table: table.name,
  });
  handler = createPlant.with({ ...quietTelemetry(), plantStore, verifyToken });
  scopedHandler = createPlant.with({
    ...quietTelemetry(),
    plantStore,
    verifyToken,
    scopes: { write: 'plants:write' },
  });
});
afterAll(async () => {
  await jwks.stop();
  await table.drop();
});

const send = (
  authorization: string | undefined,
  {
    target = handler,
    query = {},
  }: { target?: typeof handler; query?: Record<string, string> } = {},
) =>
  invokeHandler(
    target,
    httpApiEvent({
      headers: {
        'content-type': 'application/json',
        ...(authorization === undefined ? {} : { authorization }),
      },
      body: JSON.stringify({ id: 1, name: 'Mallory’s fern' }),
      query: new URLSearchParams(query).toString(),
    }),
  );

/** Sign a token whose header and payload the attacker chose, with an HMAC key of their choice. */
const hmacSigned = (secret: Uint8Array, kid: string) =>
  hmacToken(acceptableClaims({ sub: 'mallory' }), { secret, kid });

const attacks: [string, () => Promise<string | undefined>, string][] = [
  ['no Authorization header', async () => undefined, NO_TOKEN],
  ['an empty Authorization header', async () => '', NO_TOKEN],
  [
    'the Basic scheme',
    async () => `Basic ${Buffer.from('admin:admin').toString('base64')}`,
    NO_TOKEN,
  ],
  ['Bearer with no token', async () => 'Bearer', NO_TOKEN],
  ['Bearer and spaces only', async () => 'Bearer    ', NO_TOKEN],
  [
    'alg none',
    async () => `Bearer ${unsecuredToken(acceptableClaims({ sub: 'mallory' }))}`,
    INVALID_TOKEN,
  ],
  [
    'HS256 signed with the public key as the secret (algorithm confusion)',
    async () =>
      `Bearer ${await hmacSigned(new TextEncoder().encode(await exportSPKI(rsa.publicKey)), rsa.kid)}`,
    INVALID_TOKEN,
  ],
  [
    'a valid token with one payload byte changed',
    async () => `Bearer ${tamperedToken(await signToken(rsa))}`,
    INVALID_TOKEN,
  ],
  [
    'a token signed by a key not in the JWKS, under a trusted kid',
    async () => `Bearer ${await signToken({ ...stranger, kid: rsa.kid })}`,
    INVALID_TOKEN,
  ],
  ['a token with an unknown kid', async () => `Bearer ${await signToken(stranger)}`, INVALID_TOKEN],
  [
    'an expired token',
    async () => `Bearer ${await signToken(rsa, { expiresIn: -120, notBefore: -3600 })}`,
    INVALID_TOKEN,
  ],
  [
    'a token whose nbf is in the future',
    async () => `Bearer ${await signToken(rsa, { notBefore: 600, expiresIn: 1200 })}`,
    INVALID_TOKEN,
  ],
  [
    'a token from another issuer',
    async () => `Bearer ${await signToken(rsa, { issuer: 'https://evil.test/' })}`,
    INVALID_TOKEN,
  ],
  [
    'a token for another audience',
    async () => `Bearer ${await signToken(rsa, { audience: 'another-api' })}`,
    INVALID_TOKEN,
  ],
  [
    'a 16 KB token',
    async () => `Bearer ${await signToken(rsa, { claims: { padding: 'x'.repeat(16 * 1024) } })}`,
    INVALID_TOKEN,
  ],
];

describe('bearer auth attacks', () => {
  beforeEach(async () => {
    expect(await table.items()).toEqual([]);
  });

  it.each(attacks)(
    'rejects %s with 401 and stores nothing',
    async (_attack, authorization, challenge) => {
      const response = await send(await authorization());

      expect(response.statusCode).toBe(401);
      expect(response.headers?.['WWW-Authenticate']).toBe(challenge);
      expect(JSON.parse(response.body)).toEqual({ error: 401, message: expect.any(String) });
      expect(await table.items()).toEqual([]);
    },
  );

  it('ignores a token sent in the query string instead of the header', async () => {
    const token = await signToken(rsa);
    const response = await send(undefined, { query: { access_token: token } });

    expect(response.statusCode).toBe(401);
    expect(response.headers?.['WWW-Authenticate']).toBe(NO_TOKEN);
    expect(await table.items()).toEqual([]);
  });

  it('answers 403 insufficient_scope when the required scope is missing, and stores nothing', async () => {
    const token = await signToken(rsa, { claims: { scope: 'plants:read' } });
    const response = await send(`Bearer ${token}`, { target: scopedHandler });

    expect(response.statusCode).toBe(403);
    expect(response.headers?.['WWW-Authenticate']).toBe(
      'Bearer realm="plants", error="insufficient_scope", scope="plants:write"',
    );
    expect(await table.items()).toEqual([]);
  });
});

describe('a key set that (wrongly) publishes a symmetric key', () => {
  it('still rejects HMAC tokens signed with it: only RS256 and ES256 are allowed', async () => {
    const secret = crypto.getRandomValues(new Uint8Array(32));
    const keySet = createLocalJWKSet({
      keys: [
        ...(await jwksOf(rsa)).keys,
        { kty: 'oct', kid: 'shared', alg: 'HS256', k: Buffer.from(secret).toString('base64url') },
      ],
    });
    const lenient = createPlant.with({
      ...quietTelemetry(),
      plantStore: createDynamoPlantStore({
        client: localDocumentClient(endpoint),
        table: table.name,
      }),
      verifyToken: verifierFor(keySet),
    });

    const response = await send(`Bearer ${await hmacSigned(secret, 'shared')}`, {
      target: lenient,
    });

    expect(response.statusCode).toBe(401);
    expect(response.headers?.['WWW-Authenticate']).toBe(INVALID_TOKEN);
    expect(await table.items()).toEqual([]);
  });
});

describe('what a valid token may do', () => {
  beforeEach(async () => {
    await table.clear();
  });

  it.each(['Bearer', 'bearer', 'BEARER'])('accepts the scheme written %s', async (scheme) => {
    const token = await signToken(rsa, { subject: `caller-${scheme}` });
    const event = httpApiEvent({
      headers: { 'content-type': 'application/json', authorization: `${scheme} ${token}` },
      body: JSON.stringify({ id: scheme.charCodeAt(1), name: scheme }),
    });

    expect((await invokeHandler(handler, event)).statusCode).toBe(200);
    const stored = (await table.items()).find((item) => item.name === scheme);
    expect(stored?.createdBy).toBe(`caller-${scheme}`);
  });

  it('passes the required scope from scope or scp', async () => {
    for (const [id, claims] of [
      [10, { scope: 'plants:read plants:write' }],
      [11, { scp: ['plants:write'] }],
    ] as const) {
      const token = await signToken(rsa, { claims });
      const event = httpApiEvent({
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ id, name: 'Scoped' }),
      });
      expect((await invokeHandler(scopedHandler, event)).statusCode).toBe(200);
    }
  });
});
