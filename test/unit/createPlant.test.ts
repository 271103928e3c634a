// POST /plants through the whole Middy pipeline: a fake plant store, the real token verifier with a
// local key set, and API Gateway HTTP API events. What every route shares (bearer auth, the JSON
// body, the order of checks, errors, timeouts) is tested once, in pipeline.test.ts; here is what
// is POST /plants's own: the NewPlant rules, the store's outcomes, and the route's access and realm.
import type { Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HttpResponse } from '#lib/http/types.ts';
import createPlant from '#lib/routes/createPlant.ts';
import { expectError as expectErrorBody, expectSuccess } from '../support/answers.ts';
import { httpApiEvent, jsonRequest, lambdaContext, type RequestSpec } from '../support/events.ts';
import { FakePlantStore } from '../support/fakePlantStore.ts';
import { headerOf } from '../support/headers.ts';
import { type RecordedTelemetry, recordTelemetry } from '../support/telemetry.ts';
import { makeKey, signToken, verifierTrusting } from '../support/tokens.ts';

// ---------------------------------------------------------------------------------------------
// Keys, tokens and the handler.

const key = await makeKey('ES256');
const verifyToken = await verifierTrusting(key);

const tokens = {
  valid: await signToken(key),
  read: await signToken(key, { claims: { scope: 'plants:read' } }),
  readWrite: await signToken(key, { claims: { scope: 'plants:read plants:write' } }),
};
/** Every token this file presents: none may appear in a response or a log line. */
const allTokens = Object.values(tokens);

type Handler = ReturnType<typeof createPlant.with>;

/** Middy's typing expects the parsed body and an authenticated context; we send raw events. */
const send = (handler: Handler, event: unknown, context: Context = lambdaContext()) =>
  handler(event as never, context as never) as Promise<HttpResponse>;

const json = (value: unknown) => JSON.stringify(value);

/** A JSON NewPlant body of exactly `bytes` UTF-8 bytes. */
const bodyOfBytes = (bytes: number) => {
  const body = `{"id":1,"name":"${'a'.repeat(bytes - Buffer.byteLength('{"id":1,"name":""}'))}"}`;
  expect(Buffer.byteLength(body)).toBe(bytes);
  return body;
};

let telemetry: RecordedTelemetry;

beforeEach(() => {
  telemetry = recordTelemetry();
});

afterEach(() => {
  // docs/authentication.md: the token itself is never logged
  const log = telemetry.text();
  for (const token of allTokens) expect(log).not.toContain(token);
});

describe('POST /plants', () => {
  let store: FakePlantStore;
  let handler: Handler;

  beforeEach(() => {
    store = new FakePlantStore();
    handler = createPlant.with({ plantStore: store, verifyToken, ...telemetry });
  });

  const post = (spec: RequestSpec, context?: Context) => send(handler, httpApiEvent(spec), context);

  /** An authenticated JSON request; `body` undefined sends no body at all. */
  const request = (
    body: string | undefined,
    headers: Record<string, string> = {},
    rest: Omit<RequestSpec, 'headers' | 'body'> = {},
  ) => jsonRequest(tokens.valid, body, headers, rest);

  /** The Error object of docs/api.md ("Errors"), for any error status, showing no token; returns its message. */
  const expectError = (response: HttpResponse, status: number): string =>
    expectErrorBody(response, status, allTokens);

  /** An error, and the store never reached: a rejected request writes nothing. */
  const expectRejected = (response: HttpResponse, status: number): string => {
    const message = expectError(response, status);
    expect(store.calls).toEqual([]);
    return message;
  };

  // -------------------------------------------------------------------------------------------
  describe('200: the plant is created', () => {
    it('answers exactly {name, tag} as JSON and hands the store the plant and the caller', async () => {
      const response = await post(request(json({ id: 7, name: 'Ficus', tag: 'indoor' })));

      expectSuccess(response, { name: 'Ficus', tag: 'indoor' });
      expect(store.calls).toHaveLength(1);
      expect(store.calls[0]?.plant).toStrictEqual({ id: 7, name: 'Ficus', tag: 'indoor' });
      expect(store.calls[0]?.creator).toBe('user-1');
    });

    it('omits tag when the plant has none (no id, no store metadata)', async () => {
      const response = await post(request(json({ id: 8, name: 'Aloe' })));

      expectSuccess(response, { name: 'Aloe' });
      expect(response.body).not.toMatch(/"id"|createdAt|createdBy|tag/);
      expect(store.calls[0]?.plant).toStrictEqual({ id: 8, name: 'Aloe' });
    });

    it('stores the token subject as creator, whatever the body claims', async () => {
      const token = await signToken(key, { subject: 'auth0|carol' });
      const response = await post(
        request(json({ id: 9, name: 'Fern', createdBy: 'mallory' }), {
          authorization: `Bearer ${token}`,
        }),
      );

      expectSuccess(response, { name: 'Fern' });
      expect(store.calls[0]?.creator).toBe('auth0|carol');
    });

    it('drops every extra property: mass assignment is not possible', async () => {
      const body = json({
        id: 10,
        name: 'Cactus',
        tag: 'desert',
        createdBy: 'mallory',
        createdAt: '1970-01-01T00:00:00.000Z',
        isAdmin: true,
        constructor: 'a plain constructor property is just another unknown property',
      });
      const response = await post(request(body));

      expectSuccess(response, { name: 'Cactus', tag: 'desert' });
      expect(store.calls[0]?.plant).toStrictEqual({ id: 10, name: 'Cactus', tag: 'desert' });
    });

    it("answers a replay with the store's plant", async () => {
      store.answer = 'replayed';
      store.existing = {
        id: 7,
        name: 'Ficus',
        tag: 'indoor',
        createdAt: '2025-05-05T05:05:05.000Z',
        createdBy: 'user-1',
        version: 1,
      };
      const response = await post(request(json({ id: 7, name: 'Ficus', tag: 'indoor' })));

      expectSuccess(response, { name: 'Ficus', tag: 'indoor' });
      expect(store.calls).toHaveLength(1);
    });

    it('answers a replay of a plant without tag with the name alone', async () => {
      store.answer = 'replayed';
      store.existing = {
        id: 3,
        name: 'Basil',
        createdAt: '2025-05-05T05:05:05.000Z',
        createdBy: 'user-1',
        version: 1,
      };
      const response = await post(request(json({ id: 3, name: 'Basil' })));

      expectSuccess(response, { name: 'Basil' });
    });

    it('accepts the empty name', async () => {
      const response = await post(request(json({ id: 11, name: '' })));

      expectSuccess(response, { name: '' });
      expect(store.calls[0]?.plant).toStrictEqual({ id: 11, name: '' });
    });

    it('stores and returns a Unicode name exactly as sent (no normalization)', async () => {
      // a decomposed é (e + U+0301), an emoji, CJK, and a right-to-left script
      const name = 'Cafe\u0301 🌿 盆栽 نبات';
      const tag = 'ﬁcus'; // a ligature that NFKC would change
      const response = await post(request(json({ id: 12, name, tag })));

      expectSuccess(response, { name, tag });
      expect(store.calls[0]?.plant).toStrictEqual({ id: 12, name, tag });
    });

    it('accepts a surrogate pair written as JSON escapes', async () => {
      const response = await post(request('{"id":13,"name":"\\ud83c\\udf3f"}'));

      expectSuccess(response, { name: '🌿' });
    });

    it('takes 7.0 as the integer 7', async () => {
      const response = await post(request('{"id":7.0,"name":"Ficus"}'));

      expectSuccess(response, { name: 'Ficus' });
      expect(store.calls[0]?.plant.id).toBe(7);
    });

    it.each([
      ['-9007199254740991', -9007199254740991],
      ['9007199254740991', 9007199254740991],
      ['0', 0],
    ])('accepts the id %s, at the edge of the range', async (text, id) => {
      const response = await post(request(`{"id":${text},"name":"Edge"}`));

      expectSuccess(response, { name: 'Edge' });
      expect(store.calls[0]?.plant.id).toBe(id);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('400: the body is not a valid NewPlant', () => {
    it.each([
      ['an array', '[{"id":1,"name":"a"}]'],
      ['an empty array', '[]'],
      ['a string', '"plant"'],
      ['a number', '42'],
      ['null', 'null'],
      ['true', 'true'],
    ])('rejects JSON that is not an object: %s', async (_, body) => {
      const message = expectRejected(await post(request(body)), 400);
      expect(message).toMatch(/object/i);
    });

    it.each([
      ['missing id', '{"name":"Ficus"}', /\bid\b/],
      ['missing name', '{"id":1}', /\bname\b/],
      ['id as the string "7"', '{"id":"7","name":"Ficus"}', /\bid\b/],
      ['id 7.5', '{"id":7.5,"name":"Ficus"}', /\bid\b/],
      ['id null', '{"id":null,"name":"Ficus"}', /\bid\b/],
      ['id true', '{"id":true,"name":"Ficus"}', /\bid\b/],
      ['name a number', '{"id":1,"name":42}', /\bname\b/],
      ['name null', '{"id":1,"name":null}', /\bname\b/],
      ['name an array', '{"id":1,"name":["Ficus"]}', /\bname\b/],
      ['name an object', '{"id":1,"name":{"text":"Ficus"}}', /\bname\b/],
      ['tag null', '{"id":1,"name":"Ficus","tag":null}', /\btag\b/],
      ['tag a number', '{"id":1,"name":"Ficus","tag":5}', /\btag\b/],
      ['tag a boolean', '{"id":1,"name":"Ficus","tag":true}', /\btag\b/],
      ['an unpaired surrogate in name', '{"id":1,"name":"\\ud800"}', /\bname\b/],
      ['a lone low surrogate in name', '{"id":1,"name":"ab\\udc00cd"}', /\bname\b/],
      ['an unpaired surrogate in tag', '{"id":1,"name":"Ficus","tag":"x\\ud800"}', /\btag\b/],
    ])('rejects %s, naming the field', async (_, body, field) => {
      const message = expectRejected(await post(request(body)), 400);
      expect(message).toMatch(field);
    });

    it.each(['1.0000000000000001', '9007199254740990.6', '1e-400', '-0.00000000000000000001'])(
      'rejects the id %s, which JSON.parse would round to a whole number, naming the range',
      async (id) => {
        const message = expectRejected(await post(request(`{"id":${id},"name":"Ficus"}`)), 400);
        expect(message).toMatch(/\bid\b/);
        expect(message).toContain(' 9007199254740991');
      },
    );

    it.each([
      ['1.5e1', 15],
      ['7.000', 7],
      ['-2E2', -200],
    ])(
      'accepts the id %s, a whole number written with a fraction or exponent',
      async (text, id) => {
        const response = await post(request(`{"id":${text},"name":"Exact","extra":{"id":0.5}}`));

        expectSuccess(response, { name: 'Exact' });
        expect(store.calls[0]?.plant.id).toBe(id);
      },
    );

    it.each(['9007199254740992', '-9007199254740992', '1e300', '-1e300'])(
      'rejects the id %s with a message that names the range',
      async (id) => {
        const message = expectRejected(await post(request(`{"id":${id},"name":"Ficus"}`)), 400);
        expect(message).toMatch(/\bid\b/);
        expect(message).toContain('-9007199254740991');
        expect(message).toContain(' 9007199254740991');
      },
    );
  });

  // -------------------------------------------------------------------------------------------
  describe("the route's access, realm and body limit", () => {
    const plant = json({ id: 1, name: 'Ficus' });

    it('answers 401 without a token, challenging for the plants realm', async () => {
      const response = await post({ headers: { 'content-type': 'application/json' }, body: plant });

      expectRejected(response, 401);
      expect(headerOf(response, 'WWW-Authenticate')).toBe('Bearer realm="plants"');
    });

    it('requires the write scope when the deployment sets one: the read scope does not do', async () => {
      handler = createPlant.with({
        plantStore: store,
        ...telemetry,
        verifyToken,
        scopes: { read: 'plants:read', write: 'plants:write' },
      });

      const refused = await post(request(plant, { authorization: `Bearer ${tokens.read}` }));
      expectRejected(refused, 403);
      expect(headerOf(refused, 'WWW-Authenticate')).toBe(
        'Bearer realm="plants", error="insufficient_scope", scope="plants:write"',
      );
      const accepted = await post(request(plant, { authorization: `Bearer ${tokens.readWrite}` }));
      expectSuccess(accepted, { name: 'Ficus' });
      expect(store.calls).toHaveLength(1);
    });

    it('takes a body of 65536 bytes, and answers 413 to one of 65537', async () => {
      expectRejected(await post(request(bodyOfBytes(65_537))), 413);

      expect((await post(request(bodyOfBytes(65_536)))).statusCode).toBe(200);
      expect(store.calls).toHaveLength(1);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('409, 503: what the store answers', () => {
    const plant = json({ id: 7, name: 'Ficus', tag: 'outdoor' });

    it('answers 409 when the id is stored with a different name or tag', async () => {
      store.answer = 'conflict';
      const response = await post(request(plant));

      const message = expectError(response, 409);
      expect(message).toMatch(/\b7\b/);
      expect(store.calls).toHaveLength(1);
      // nothing of the stored plant beyond its id leaks
      expect(response.body).not.toContain('Stored ficus');
      expect(response.body).not.toContain('someone-else');
    });

    it("answers 409 for another caller's plant, naming nobody", async () => {
      store.answer = 'notOwner';
      const response = await post(request(plant));

      const message = expectError(response, 409);
      expect(message).toMatch(/\b7\b/);
      expect(message).not.toMatch(/someone-else|user-1|caller|owner/i);
    });

    it('answers 503 with Retry-After when the store is unavailable', async () => {
      store.fault = 'unavailable';
      const response = await post(request(plant));

      const message = expectError(response, 503);
      expect(message).toMatch(/retry/i);
      expect(headerOf(response, 'Retry-After')).toMatch(/^[1-9]\d*$/);
      expect(response.body).not.toMatch(/Throttling|Rate exceeded/);
    });

    it("hands the store the request's signal, aborted when the function runs out of time", async () => {
      store.fault = 'hang';
      const response = await post(request(plant), lambdaContext(700));

      expectError(response, 503);
      // the store's work is cancelled, not left running
      expect(store.calls).toHaveLength(1);
      expect(store.calls[0]?.signal?.aborted).toBe(true);
    });
  });
});
