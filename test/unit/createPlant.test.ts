// POST /plants through the whole Middy pipeline: a fake plant store, the real token verifier with a
// local key set, and API Gateway events of both payload versions.
import type { Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HttpResponse } from '#lib/http/types.ts';
import { createPlantHandler } from '#lib/routes/createPlant.ts';
import {
  apiEvent,
  lambdaContext,
  type PayloadVersion,
  type RequestSpec,
} from '../support/events.ts';
import { FakePlantStore } from '../support/fakePlantStore.ts';
import { headerOf } from '../support/headers.ts';
import { type RecordedTelemetry, recordTelemetry } from '../support/telemetry.ts';
import {
  acceptableClaims,
  hmacToken,
  makeKey,
  signToken,
  tamperedToken,
  unsecuredToken,
  verifierFor,
  verifierTrusting,
} from '../support/tokens.ts';

// ---------------------------------------------------------------------------------------------
// Keys, tokens and the handler.

const key = await makeKey('ES256');
const strangerKey = await makeKey('ES256');
const verifyToken = await verifierTrusting(key);

const validToken = await signToken(key);
const longTokenPadding = 'x'.repeat(9000);
const tokens = {
  valid: validToken,
  expired: await signToken(key, { expiresIn: -120, notBefore: -300 }),
  notYetValid: await signToken(key, { notBefore: 120, expiresIn: 600 }),
  wrongIssuer: await signToken(key, { issuer: 'https://evil.test/' }),
  wrongAudience: await signToken(key, { audience: 'another-api' }),
  unknownKey: await signToken(strangerKey),
  wrongKeySameKid: await signToken({ ...strangerKey, kid: key.kid }),
  hmac: await hmacToken(),
  none: unsecuredToken(),
  tampered: tamperedToken(validToken),
  tooLong: await signToken(key, { claims: { pad: longTokenPadding } }),
  garbage: 'garbage-token-5f1c9e2a',
  read: await signToken(key, { claims: { scope: 'plants:read' } }),
  readWrite: await signToken(key, { claims: { scope: 'plants:read plants:write' } }),
  scpWrite: await signToken(key, { claims: { scp: ['plants:write'] } }),
  writer: await signToken(key, { claims: { scope: 'plants:writer' } }),
};
/** Every token this file presents: none may appear in a response or a log line. */
const allTokens = Object.values(tokens);

type Handler = ReturnType<typeof createPlantHandler>;

/** Middy's typing expects the parsed body and an authenticated context; we send raw events. */
const send = (handler: Handler, event: unknown, context: Context = lambdaContext()) =>
  handler(event as never, context as never) as Promise<HttpResponse>;

const json = (value: unknown) => JSON.stringify(value);

/** Every answer, success or error: per-caller data that no cache keeps and no browser sniffs. */
const expectProtectiveHeaders = (response: HttpResponse) => {
  expect(headerOf(response, 'Cache-Control')).toBe('no-store');
  expect(headerOf(response, 'X-Content-Type-Options')).toBe('nosniff');
};

/** A JSON NewPlant body of exactly `bytes` UTF-8 bytes, its name made of `filler`. */
const bodyOfBytes = (bytes: number, filler = 'a') => {
  const prefix = '{"id":1,"name":"';
  const suffix = '"}';
  const room = bytes - Buffer.byteLength(prefix + suffix);
  const fillerBytes = Buffer.byteLength(filler);
  const body = `${prefix}${filler.repeat(Math.floor(room / fillerBytes))}${'a'.repeat(room % fillerBytes)}${suffix}`;
  expect(Buffer.byteLength(body)).toBe(bytes);
  return body;
};

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

const VERSIONS: PayloadVersion[] = ['2.0', '1.0'];

let telemetry: RecordedTelemetry;

beforeEach(() => {
  telemetry = recordTelemetry();
});

afterEach(() => {
  telemetry.stop();
  // API.md: the token itself is never logged
  const log = telemetry.text();
  for (const token of allTokens) expect(log).not.toContain(token);
});

describe.each(VERSIONS)('POST /plants (API Gateway payload %s)', (version) => {
  let store: FakePlantStore;
  let handler: Handler;

  beforeEach(() => {
    store = new FakePlantStore();
    handler = createPlantHandler({ plantStore: store, verifyToken, ...telemetry });
  });

  const post = (spec: RequestSpec, context?: Context) =>
    send(handler, apiEvent(version, spec), context);

  /** An authenticated JSON request; `body` undefined sends no body at all. */
  const request = (
    body: string | undefined,
    headers: Record<string, string> = {},
    rest: Omit<RequestSpec, 'headers' | 'body'> = {},
  ): RequestSpec => ({
    headers: {
      authorization: `Bearer ${tokens.valid}`,
      'content-type': 'application/json',
      ...headers,
    },
    ...(body === undefined ? {} : { body }),
    ...rest,
  });

  const expectSuccess = (response: HttpResponse, plant: { name: string; tag?: string }) => {
    expect(response.statusCode).toBe(200);
    expect(headerOf(response, 'Content-Type')).toBe('application/json');
    expectProtectiveHeaders(response);
    expect(JSON.parse(response.body ?? '')).toStrictEqual(plant);
  };

  /** The Error object of API.md, for any error status; returns its message. */
  const expectError = (response: HttpResponse, status: number): string => {
    expect(response.statusCode).toBe(status);
    expect(headerOf(response, 'Content-Type')).toBe('application/json');
    expectProtectiveHeaders(response);
    const body = JSON.parse(response.body ?? '') as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['error', 'message']);
    expect(body.error).toBe(status);
    expect(typeof body.message).toBe('string');
    const message = String(body.message);
    expect(message.trim()).not.toBe('');
    const whole = JSON.stringify(response);
    for (const token of allTokens) expect(whole).not.toContain(token);
    return message;
  };

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

    it('decodes a base64 body (isBase64Encoded)', async () => {
      const name = 'Ficus 🌿 e\u0301';
      const response = await post(
        request(base64(json({ id: 14, name, tag: 'b64' })), {}, { isBase64Encoded: true }),
      );

      expectSuccess(response, { name, tag: 'b64' });
      expect(store.calls[0]?.plant).toStrictEqual({ id: 14, name, tag: 'b64' });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('400: the body is not a valid NewPlant', () => {
    it('rejects a request without body', async () => {
      expectRejected(await post(request(undefined)), 400);
    });

    it('rejects an empty body', async () => {
      expectRejected(await post(request('')), 400);
    });

    it.each([
      ['a truncated object', '{"id":1,"name":"a"'],
      ['a trailing comma', '{"id":1,"name":"a",}'],
      ['single quotes', "{'id':1,'name':'a'}"],
      ['plain text', 'id=1&name=a'],
      ['blank space', '   '],
    ])('rejects invalid JSON: %s', async (_, body) => {
      expectRejected(await post(request(body)), 400);
    });

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

    it.each([
      ['__proto__ at the top', '{"id":1,"name":"a","__proto__":{"isAdmin":true}}', '__proto__'],
      ['__proto__ nested', '{"id":1,"name":"a","x":{"__proto__":{"isAdmin":true}}}', '__proto__'],
      [
        'constructor.prototype',
        '{"id":1,"name":"a","constructor":{"prototype":{"isAdmin":true}}}',
        'constructor',
      ],
    ])('rejects a prototype-pollution key: %s', async (_, body, keyName) => {
      const message = expectRejected(await post(request(body)), 400);
      expect(message).toContain(keyName);
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    });

    it('rejects a base64 body that is not valid UTF-8', async () => {
      const bytes = Buffer.concat([
        Buffer.from('{"id":1,"name":"'),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from('"}'),
      ]);
      const response = await post(request(bytes.toString('base64'), {}, { isBase64Encoded: true }));
      const message = expectRejected(response, 400);
      expect(message).toMatch(/UTF-8/i);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('401: the caller is not authenticated', () => {
    const plant = json({ id: 1, name: 'Ficus' });
    const noToken = 'Bearer realm="plants"';
    const invalidToken = 'Bearer realm="plants", error="invalid_token"';

    it('rejects a request without Authorization header', async () => {
      const response = await post({ headers: { 'content-type': 'application/json' }, body: plant });

      expectRejected(response, 401);
      expect(headerOf(response, 'WWW-Authenticate')).toBe(noToken);
    });

    it.each([
      ['an empty header', ''],
      ['a blank header', '   '],
      ['the Basic scheme', 'Basic dXNlcjpwYXNzd29yZA=='],
      ['Bearer without a token', 'Bearer'],
      ['Bearer followed by blanks only', 'Bearer   '],
      ['a token without scheme', tokens.valid],
    ])('rejects %s, with a challenge but no invalid_token', async (_, authorization) => {
      const response = await post(request(plant, { authorization }));

      expectRejected(response, 401);
      expect(headerOf(response, 'WWW-Authenticate')).toBe(noToken);
    });

    it.each([
      ['a garbage token', tokens.garbage],
      ['an expired token (beyond the 60 s tolerance)', tokens.expired],
      ['a token not valid before 120 s from now', tokens.notYetValid],
      ['a token from another issuer', tokens.wrongIssuer],
      ['a token for another audience', tokens.wrongAudience],
      ['a token signed by a key not in the JWKS', tokens.unknownKey],
      ["a token signed by another key under a trusted key's kid", tokens.wrongKeySameKid],
      ['an HS256 token (shared secret)', tokens.hmac],
      ['an unsecured token (alg none)', tokens.none],
      ['a token with a payload byte changed', tokens.tampered],
      ['a validly signed token longer than 8192 characters', tokens.tooLong],
    ])('rejects %s as invalid_token', async (_, token) => {
      const response = await post(request(plant, { authorization: `Bearer ${token}` }));

      expectRejected(response, 401);
      expect(headerOf(response, 'WWW-Authenticate')).toBe(invalidToken);
    });

    it('the long token is rejected for its length alone', () => {
      expect(tokens.tooLong.length).toBeGreaterThan(8192);
    });

    it.each([
      ['bearer', `bearer ${tokens.valid}`],
      ['BEARER', `BEARER ${tokens.valid}`],
      ['several spaces', `Bearer   ${tokens.valid}`],
    ])('takes the scheme case-insensitively and with any spacing: %s', async (_, authorization) => {
      const response = await post(request(plant, { authorization }));

      expectSuccess(response, { name: 'Ficus' });
    });

    it.each([
      ['AUTHORIZATION', 'CONTENT-TYPE'],
      ['Authorization', 'Content-Type'],
      ['authorization', 'content-type'],
    ])('matches the header names %s and %s case-insensitively', async (auth, contentType) => {
      const response = await post({
        headers: { [auth]: `Bearer ${tokens.valid}`, [contentType]: 'application/json' },
        body: plant,
      });

      expectSuccess(response, { name: 'Ficus' });
      expect(store.calls).toHaveLength(1);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('403: the token lacks the required scope', () => {
    const plant = json({ id: 1, name: 'Ficus' });
    const withScope = (token: string) => request(plant, { authorization: `Bearer ${token}` });

    beforeEach(() => {
      handler = createPlantHandler({
        plantStore: store,
        ...telemetry,
        verifyToken,
        scopes: { write: 'plants:write' },
      });
    });

    it.each([
      ['no scope at all', tokens.valid],
      ['plants:read only', tokens.read],
      ['a scope that merely starts with plants:write', tokens.writer],
    ])('rejects a token with %s', async (_, token) => {
      const response = await post(withScope(token));

      expectRejected(response, 403);
      expect(headerOf(response, 'WWW-Authenticate')).toBe(
        'Bearer realm="plants", error="insufficient_scope", scope="plants:write"',
      );
    });

    it.each([
      ['scope "plants:read plants:write"', tokens.readWrite],
      ['scp ["plants:write"]', tokens.scpWrite],
    ])('accepts a token with %s', async (_, token) => {
      const response = await post(withScope(token));

      expectSuccess(response, { name: 'Ficus' });
      expect(store.calls).toHaveLength(1);
    });

    it('checks the scope before the body', async () => {
      const response = await post(
        request('not json', {
          authorization: `Bearer ${tokens.read}`,
          'content-type': 'text/plain',
        }),
      );

      expectRejected(response, 403);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('order of checks: authentication, media type, size, JSON, fields', () => {
    const oversized = bodyOfBytes(64 * 1024 + 100);

    it.each<[string, RequestSpec]>([
      [
        'no header, text/plain, invalid JSON',
        { headers: { 'content-type': 'text/plain' }, body: '{' },
      ],
      ['no header, no content type, no body', {}],
      [
        'no header, oversized body',
        { headers: { 'content-type': 'application/json' }, body: oversized },
      ],
      [
        'no header, prototype pollution',
        { headers: { 'content-type': 'application/json' }, body: '{"__proto__":{}}' },
      ],
    ])('answers 401, not 400/413/415, without a token: %s', async (_, spec) => {
      const response = await post(spec);

      expectRejected(response, 401);
      expect(headerOf(response, 'WWW-Authenticate')).toBe('Bearer realm="plants"');
    });

    it('answers 401 to an invalid token whatever the body', async () => {
      const response = await post(
        request('{', { authorization: `Bearer ${tokens.expired}`, 'content-type': 'text/plain' }),
      );

      expectRejected(response, 401);
      expect(headerOf(response, 'WWW-Authenticate')).toBe(
        'Bearer realm="plants", error="invalid_token"',
      );
    });

    it('answers 415 to a wrong content type with an oversized body', async () => {
      expectRejected(await post(request(oversized, { 'content-type': 'text/plain' })), 415);
    });

    it('answers 415 to a wrong content type without body', async () => {
      expectRejected(await post(request(undefined, { 'content-type': 'text/plain' })), 415);
    });

    it('answers 413 to an oversized body that is not JSON either', async () => {
      expectRejected(await post(request(`{${'x'.repeat(70_000)}`)), 413);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('413: the body is larger than 64 KiB', () => {
    it('rejects a body of 65537 bytes', async () => {
      expectRejected(await post(request(bodyOfBytes(65_537))), 413);
    });

    it('measures bytes, not characters', async () => {
      const body = bodyOfBytes(65_537, 'é');
      expect(body.length).toBeLessThan(65_536);

      expectRejected(await post(request(body)), 413);
    });

    it('accepts a body of exactly 65536 bytes', async () => {
      const response = await post(request(bodyOfBytes(65_536)));

      expect(response.statusCode).toBe(200);
      expect(store.calls).toHaveLength(1);
    });

    it('rejects a base64 body that decodes to more than 65536 bytes', async () => {
      const response = await post(
        request(base64(bodyOfBytes(65_537)), {}, { isBase64Encoded: true }),
      );
      expectRejected(response, 413);
    });

    it('measures a base64 body after decoding: 65536 bytes pass though the text is longer', async () => {
      const encoded = base64(bodyOfBytes(65_536));
      expect(encoded.length).toBeGreaterThan(65_536);

      const response = await post(request(encoded, {}, { isBase64Encoded: true }));

      expect(response.statusCode).toBe(200);
      expect(store.calls).toHaveLength(1);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('415: the body is not declared as JSON', () => {
    const plant = json({ id: 1, name: 'Ficus' });

    it('rejects a request without Content-Type', async () => {
      const response = await post({
        headers: { authorization: `Bearer ${tokens.valid}` },
        body: plant,
      });
      expectRejected(response, 415);
    });

    it.each([
      'text/plain',
      'application/xml',
      'text/json',
      'application/x-www-form-urlencoded',
      'application/jsonp',
      'multipart/form-data; boundary=x',
    ])('rejects Content-Type %s', async (contentType) => {
      expectRejected(await post(request(plant, { 'content-type': contentType })), 415);
    });

    it.each([
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'APPLICATION/JSON',
      'application/merge-patch+json',
      'application/vnd.api+json',
    ])('accepts Content-Type %s as JSON', async (contentType) => {
      const response = await post(request(plant, { 'content-type': contentType }));

      expectSuccess(response, { name: 'Ficus' });
    });

    // RFC 9110 §8.3.1: media-type = type "/" subtype *( OWS ";" OWS parameter )
    it('accepts Content-Type application/json ; charset=utf-8 (whitespace before a parameter)', async () => {
      const response = await post(
        request(plant, { 'content-type': 'application/json ; charset=utf-8' }),
      );

      expectSuccess(response, { name: 'Ficus' });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('409, 500, 503: what the store answers', () => {
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

    it('answers 500 "Internal server error" when the store throws, and logs the details', async () => {
      store.fault = 'throw';
      const failure = new Error('table plants-unit exploded: SECRET-DETAIL-4711');
      store.failure = failure;
      const response = await post(request(plant));

      const message = expectError(response, 500);
      expect(message).toBe('Internal server error');
      expect(response.body).not.toContain('SECRET-DETAIL-4711');
      expect(response.body).not.toContain('plants-unit');
      expect(response.body).not.toMatch(/\bat \S+ \(|Error:/);
      // API.md: the details go to the log with the request id
      expect(
        telemetry
          .documents()
          .some(
            (line) =>
              line.function_request_id === 'aws-request-id' &&
              JSON.stringify(line).includes('SECRET-DETAIL-4711'),
          ),
      ).toBe(true);
    });

    it('answers 500 when the store rejects with something that is not an Error', async () => {
      store.fault = 'throw';
      store.failure = 'a bare string: SECRET-DETAIL-4711';
      const response = await post(request(plant));

      expect(expectError(response, 500)).toBe('Internal server error');
      expect(response.body).not.toContain('SECRET-DETAIL-4711');
    });

    it.each<[string, () => unknown]>([
      ['a value JSON cannot hold (a BigInt)', () => ({ count: 1n })],
      ['an object that cannot even become a string', () => Object.create(null)],
      [
        'an error that is its own cause',
        () => {
          const loop = new Error('loop');
          loop.cause = loop;
          return loop;
        },
      ],
    ])(
      'answers 500 even when the failure is %s, which the log cannot serialize plainly',
      async (_case, makeFailure) => {
        store.fault = 'throw';
        store.failure = makeFailure();
        const response = await post(request(plant));

        expect(expectError(response, 500)).toBe('Internal server error');
      },
    );

    it('answers 503 with Retry-After when the identity provider keys cannot be fetched', async () => {
      const unreachableKeys = verifierFor(() => Promise.reject(new TypeError('fetch failed')));
      handler = createPlantHandler({
        plantStore: store,
        verifyToken: unreachableKeys,
        ...telemetry,
      });
      const response = await post(request(plant));

      const message = expectRejected(response, 503);
      expect(message).toMatch(/retry/i);
      expect(headerOf(response, 'Retry-After')).toMatch(/^[1-9]\d*$/);
    });

    it('answers 503 with Retry-After before the Lambda timeout when the store never answers', async () => {
      store.fault = 'hang';
      const started = Date.now();
      const response = await post(request(plant), lambdaContext(700));
      const elapsed = Date.now() - started;

      const message = expectError(response, 503);
      expect(message).toMatch(/retry/i);
      expect(headerOf(response, 'Retry-After')).toMatch(/^[1-9]\d*$/);
      expect(elapsed).toBeLessThan(700);
      // the store's work is cancelled, not left running
      expect(store.calls).toHaveLength(1);
      expect(store.calls[0]?.signal?.aborted).toBe(true);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('the handler never throws', () => {
    it('answers an event without headers or body with 401', async () => {
      const event = { ...apiEvent(version, {}), headers: null, multiValueHeaders: null };
      await expect(send(handler, event)).resolves.toMatchObject({ statusCode: 401 });
    });

    it('answers an empty event object with 401', async () => {
      await expect(send(handler, {})).resolves.toMatchObject({ statusCode: 401 });
    });

    it('answers an event without headers with a well-formed 401', async () => {
      const response = await post({ body: json({ id: 1, name: 'Ficus' }) });
      expectRejected(response, 401);
    });
  });
});

// The token fixtures are what their names say (guards against a test passing for the wrong reason).
describe('token fixtures', () => {
  it('the forged tokens carry otherwise acceptable claims', () => {
    const payloadOf = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
    for (const token of [tokens.hmac, tokens.none, tokens.tampered]) {
      const claims = payloadOf(token);
      expect(claims).toMatchObject({
        iss: acceptableClaims().iss,
        aud: acceptableClaims().aud,
      });
      expect(claims.exp).toBeTypeOf('number');
      expect(Number(claims.exp)).toBeGreaterThan(Date.now() / 1000);
    }
    expect(payloadOf(tokens.tampered).sub).toBe('user-2');
    expect(tokens.tampered.split('.')[2]).toBe(tokens.valid.split('.')[2]);
  });

  it('the valid token is accepted by the verifier', async () => {
    await expect(verifyToken(tokens.valid)).resolves.toEqual({ sub: 'user-1', scopes: [] });
  });
});
