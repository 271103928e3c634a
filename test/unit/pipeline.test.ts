// The pipeline every route shares (lib/http/pipeline.ts), through a stub route of its own: bearer
// auth and scopes, the JSON body (media type, size, JSON), validation of body, path and query, the
// order of those checks, the error responder (and its log), the headers of every answer and the
// timeout. What a route does with a valid request is tested with the route (createPlant.test.ts,
// plantRoutes.test.ts); the request log and metrics in telemetry.test.ts.
import type { Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { jsonRequestBody } from '#lib/http/jsonBody.ts';
import {
  type HttpDependencies,
  type HttpHandler,
  httpRoute,
  type RouteRequest,
} from '#lib/http/pipeline.ts';
import type { Reply } from '#lib/http/reply.ts';
import type { HttpResponse } from '#lib/http/types.ts';
import { expectError as expectErrorBody, expectSuccess } from '../support/answers.ts';
import { httpApiEvent, jsonRequest, lambdaContext, type RequestSpec } from '../support/events.ts';
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
// Keys and tokens.

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
  read: await signToken(key, { claims: { scope: 'things:read' } }),
  readWrite: await signToken(key, { claims: { scope: 'things:read things:write' } }),
  scpWrite: await signToken(key, { claims: { scp: ['things:write'] } }),
  writer: await signToken(key, { claims: { scope: 'things:writer' } }),
};
/** Every token this file presents: none may appear in a response or a log line. */
const allTokens = Object.values(tokens);

// ---------------------------------------------------------------------------------------------
// The stub route: a JSON body, a path parameter and a query, each with a schema of its own.

const REALM = 'things';
const ROUTE = 'PUT /things/{id}';

const Thing = z.object(
  { name: z.string('name must be a string') },
  { error: 'Request body must be a JSON object (a Thing)' },
);
const ThingPath = z.object({
  id: z.string().check(z.regex(/^[0-9]+$/, 'id must be decimal digits')),
});
const ThingQuery = z.object({
  mode: z.optional(z.string('mode must be given once, as text')),
});
type ThingRequest = RouteRequest<
  z.infer<typeof Thing>,
  z.infer<typeof ThingPath>,
  z.infer<typeof ThingQuery>
>;

/** What the stub route's logic does; by default it answers the thing's name. */
let logic: (request: ThingRequest) => Promise<Reply>;
/** Every request that reached the route's logic. */
let reached: ThingRequest[];

const thingRoute = (dependencies: HttpDependencies) =>
  httpRoute(
    dependencies,
    {
      name: ROUTE,
      access: 'write',
      realm: REALM,
      body: jsonRequestBody(Thing, { describedAs: 'a Thing' }),
      path: ThingPath,
      query: ThingQuery,
    },
    (request) => {
      reached.push(request);
      return logic(request);
    },
  );

/** Middy's typing expects the parsed body and an authenticated context; we send raw events. */
const send = (handler: HttpHandler, event: unknown, context: Context = lambdaContext()) =>
  handler(event as never, context as never) as Promise<HttpResponse>;

const json = (value: unknown) => JSON.stringify(value);

/** A JSON Thing body of exactly `bytes` UTF-8 bytes, its name made of `filler`. */
const bodyOfBytes = (bytes: number, filler = 'a') => {
  const prefix = '{"name":"';
  const suffix = '"}';
  const room = bytes - Buffer.byteLength(prefix + suffix);
  const fillerBytes = Buffer.byteLength(filler);
  const body = `${prefix}${filler.repeat(Math.floor(room / fillerBytes))}${'a'.repeat(room % fillerBytes)}${suffix}`;
  expect(Buffer.byteLength(body)).toBe(bytes);
  return body;
};

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

let telemetry: RecordedTelemetry;

beforeEach(() => {
  telemetry = recordTelemetry();
  reached = [];
  logic = async ({ body }) => ({ status: 200, body, metric: 'PlantsRead', outcome: 'done' });
});

afterEach(() => {
  // docs/authentication.md: the token itself is never logged
  const log = telemetry.text();
  for (const token of allTokens) expect(log).not.toContain(token);
});

describe('the pipeline, through a stub route', () => {
  let handler: HttpHandler;

  beforeEach(() => {
    handler = thingRoute({ verifyToken, ...telemetry });
  });

  /** The request as API Gateway hands it over for thing 7, unless the spec says otherwise. */
  const put = (spec: RequestSpec, context?: Context) =>
    send(
      handler,
      httpApiEvent({
        method: 'PUT',
        path: '/things/7',
        route: ROUTE,
        pathParameters: { id: '7' },
        ...spec,
      }),
      context,
    );

  /** An authenticated JSON request; `body` undefined sends no body at all. */
  const request = (
    body: string | undefined,
    headers: Record<string, string> = {},
    rest: Omit<RequestSpec, 'headers' | 'body'> = {},
  ) => jsonRequest(tokens.valid, body, headers, rest);

  it('writes a line and its count even when what the route logs cannot be written', async () => {
    logic = async ({ body }) => ({
      status: 200,
      body,
      metric: 'PlantsRead',
      log: { size: 10n },
    });

    const response = await put(request(json({ name: 'fern' })));

    expect(response.statusCode).toBe(200);
    const lines = telemetry.documents();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'ERROR', route: ROUTE, status: 200, PlantsRead: 1 });
  });

  /** The Error object of docs/api.md ("Errors"), for any error status, showing no token; returns its message. */
  const expectError = (response: HttpResponse, status: number): string =>
    expectErrorBody(response, status, allTokens);

  /** An error, and the route's logic never reached: a rejected request does nothing. */
  const expectRejected = (response: HttpResponse, status: number): string => {
    const message = expectError(response, status);
    expect(reached).toEqual([]);
    return message;
  };

  const thing = json({ name: 'Ficus' });

  // -------------------------------------------------------------------------------------------
  describe('a valid request reaches the route', () => {
    it('with the validated body, path and query, the caller, and the request as the client sent it', async () => {
      const response = await put(
        request(
          json({ name: 'Ficus', extra: true }),
          { host: 'things.example.com', 'x-forwarded-proto': 'https', 'If-Match': '"1"' },
          { query: 'mode=fast&other=1' },
        ),
      );

      expectSuccess(response, { name: 'Ficus' });
      expect(reached).toHaveLength(1);
      const [seen] = reached;
      expect(seen?.body).toStrictEqual({ name: 'Ficus' });
      expect(seen?.path).toStrictEqual({ id: '7' });
      expect(seen?.query).toStrictEqual({ mode: 'fast' });
      expect(seen?.caller).toEqual({ sub: 'user-1', scopes: [] });
      expect(seen?.method).toBe('PUT');
      expect(seen?.apiPath).toBe('/things/7');
      expect(seen?.headers['if-match']).toBe('"1"');
      expect(seen?.url.href).toBe('https://things.example.com/things/7?mode=fast&other=1');
      expect(seen?.signal.aborted).toBe(false);
    });

    it('decodes a base64 body (isBase64Encoded)', async () => {
      const name = 'Ficus 🌿 e\u0301';
      const response = await put(request(base64(json({ name })), {}, { isBase64Encoded: true }));

      expectSuccess(response, { name });
      expect(reached[0]?.body).toStrictEqual({ name });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('400: the body, path or query is not what the route accepts', () => {
    it('rejects a request without body', async () => {
      const message = expectRejected(await put(request(undefined)), 400);
      expect(message).toContain('a Thing');
    });

    it('rejects an empty body', async () => {
      expectRejected(await put(request('')), 400);
    });

    it.each([
      ['a truncated object', '{"name":"a"'],
      ['a trailing comma', '{"name":"a",}'],
      ['single quotes', "{'name':'a'}"],
      ['plain text', 'name=a'],
      ['blank space', '   '],
    ])('rejects invalid JSON: %s', async (_, body) => {
      expectRejected(await put(request(body)), 400);
    });

    it.each([
      [
        'a body that is not an object',
        '[{"name":"a"}]',
        'Request body must be a JSON object (a Thing)',
      ],
      ['a field of the wrong type', '{"name":42}', 'name must be a string'],
    ])("rejects %s with the schema's own words", async (_, body, message) => {
      expect(expectRejected(await put(request(body)), 400)).toBe(message);
    });

    it.each([
      ['__proto__ at the top', '{"name":"a","__proto__":{"isAdmin":true}}', '__proto__'],
      ['__proto__ nested', '{"name":"a","x":{"__proto__":{"isAdmin":true}}}', '__proto__'],
      [
        'constructor.prototype',
        '{"name":"a","constructor":{"prototype":{"isAdmin":true}}}',
        'constructor',
      ],
    ])('rejects a prototype-pollution key: %s', async (_, body, keyName) => {
      const message = expectRejected(await put(request(body)), 400);
      expect(message).toContain(keyName);
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    });

    it('rejects a base64 body that is not valid UTF-8', async () => {
      const bytes = Buffer.concat([
        Buffer.from('{"name":"'),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from('"}'),
      ]);
      const response = await put(request(bytes.toString('base64'), {}, { isBase64Encoded: true }));
      const message = expectRejected(response, 400);
      expect(message).toMatch(/UTF-8/i);
    });

    it('rejects a path parameter its schema refuses, before the body', async () => {
      const response = await put(
        request('{"name":42}', {}, { path: '/things/x', pathParameters: { id: 'x' } }),
      );

      expect(expectRejected(response, 400)).toBe('id must be decimal digits');
    });

    it('hands the query schema every value of a repeated parameter, so that it can refuse it', async () => {
      const response = await put(request(thing, {}, { query: 'mode=fast&mode=slow' }));

      expect(expectRejected(response, 400)).toBe('mode must be given once, as text');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('401: the caller is not authenticated', () => {
    const noToken = 'Bearer realm="things"';
    const invalidToken = 'Bearer realm="things", error="invalid_token"';

    it('rejects a request without Authorization header', async () => {
      const response = await put({ headers: { 'content-type': 'application/json' }, body: thing });

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
      const response = await put(request(thing, { authorization }));

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
      const response = await put(request(thing, { authorization: `Bearer ${token}` }));

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
      const response = await put(request(thing, { authorization }));

      expectSuccess(response, { name: 'Ficus' });
    });

    it.each([
      ['AUTHORIZATION', 'CONTENT-TYPE'],
      ['Authorization', 'Content-Type'],
      ['authorization', 'content-type'],
    ])('matches the header names %s and %s case-insensitively', async (auth, contentType) => {
      const response = await put({
        headers: { [auth]: `Bearer ${tokens.valid}`, [contentType]: 'application/json' },
        body: thing,
      });

      expectSuccess(response, { name: 'Ficus' });
      expect(reached).toHaveLength(1);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('403: the token lacks the required scope', () => {
    const withScope = (token: string) => request(thing, { authorization: `Bearer ${token}` });

    beforeEach(() => {
      handler = thingRoute({ ...telemetry, verifyToken, scopes: { write: 'things:write' } });
    });

    it.each([
      ['no scope at all', tokens.valid],
      ['things:read only', tokens.read],
      ['a scope that merely starts with things:write', tokens.writer],
    ])('rejects a token with %s', async (_, token) => {
      const response = await put(withScope(token));

      expectRejected(response, 403);
      expect(headerOf(response, 'WWW-Authenticate')).toBe(
        'Bearer realm="things", error="insufficient_scope", scope="things:write"',
      );
    });

    it.each([
      ['scope "things:read things:write"', tokens.readWrite],
      ['scp ["things:write"]', tokens.scpWrite],
    ])('accepts a token with %s', async (_, token) => {
      const response = await put(withScope(token));

      expectSuccess(response, { name: 'Ficus' });
      expect(reached).toHaveLength(1);
    });

    it('checks the scope before the body', async () => {
      const response = await put(
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
      const response = await put(spec);

      expectRejected(response, 401);
      expect(headerOf(response, 'WWW-Authenticate')).toBe('Bearer realm="things"');
    });

    it('answers 401 to an invalid token whatever the body', async () => {
      const response = await put(
        request('{', { authorization: `Bearer ${tokens.expired}`, 'content-type': 'text/plain' }),
      );

      expectRejected(response, 401);
      expect(headerOf(response, 'WWW-Authenticate')).toBe(
        'Bearer realm="things", error="invalid_token"',
      );
    });

    it('answers 415 to a wrong content type with an oversized body', async () => {
      expectRejected(await put(request(oversized, { 'content-type': 'text/plain' })), 415);
    });

    it('answers 415 to a wrong content type without body', async () => {
      expectRejected(await put(request(undefined, { 'content-type': 'text/plain' })), 415);
    });

    it('answers 413 to an oversized body that is not JSON either', async () => {
      expectRejected(await put(request(`{${'x'.repeat(70_000)}`)), 413);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('413: the body is larger than 64 KiB', () => {
    it('rejects a body of 65537 bytes', async () => {
      expectRejected(await put(request(bodyOfBytes(65_537))), 413);
    });

    it('measures bytes, not characters', async () => {
      const body = bodyOfBytes(65_537, 'é');
      expect(body.length).toBeLessThan(65_536);

      expectRejected(await put(request(body)), 413);
    });

    it('accepts a body of exactly 65536 bytes', async () => {
      const response = await put(request(bodyOfBytes(65_536)));

      expect(response.statusCode).toBe(200);
      expect(reached).toHaveLength(1);
    });

    it('rejects a base64 body that decodes to more than 65536 bytes', async () => {
      const response = await put(
        request(base64(bodyOfBytes(65_537)), {}, { isBase64Encoded: true }),
      );
      expectRejected(response, 413);
    });

    it('measures a base64 body after decoding: 65536 bytes pass though the text is longer', async () => {
      const encoded = base64(bodyOfBytes(65_536));
      expect(encoded.length).toBeGreaterThan(65_536);

      const response = await put(request(encoded, {}, { isBase64Encoded: true }));

      expect(response.statusCode).toBe(200);
      expect(reached).toHaveLength(1);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('415: the body is not declared as JSON', () => {
    it('rejects a request without Content-Type', async () => {
      const response = await put({
        headers: { authorization: `Bearer ${tokens.valid}` },
        body: thing,
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
      expectRejected(await put(request(thing, { 'content-type': contentType })), 415);
    });

    it.each([
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'APPLICATION/JSON',
      'application/merge-patch+json',
      'application/vnd.api+json',
    ])('accepts Content-Type %s as JSON', async (contentType) => {
      const response = await put(request(thing, { 'content-type': contentType }));

      expectSuccess(response, { name: 'Ficus' });
    });

    // RFC 9110 §8.3.1: media-type = type "/" subtype *( OWS ";" OWS parameter )
    it('accepts Content-Type application/json ; charset=utf-8 (whitespace before a parameter)', async () => {
      const response = await put(
        request(thing, { 'content-type': 'application/json ; charset=utf-8' }),
      );

      expectSuccess(response, { name: 'Ficus' });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('500, 503: what goes wrong on our side', () => {
    it('answers 500 "Internal server error" when the route throws, and logs the details', async () => {
      logic = () => Promise.reject(new Error('table things-unit exploded: SECRET-DETAIL-4711'));
      const response = await put(request(thing));

      const message = expectError(response, 500);
      expect(message).toBe('Internal server error');
      expect(response.body).not.toContain('SECRET-DETAIL-4711');
      expect(response.body).not.toContain('things-unit');
      expect(response.body).not.toMatch(/\bat \S+ \(|Error:/);
      // docs/api.md, "Errors": the details go to the log with the request id
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

    it('answers 500 when the route rejects with something that is not an Error', async () => {
      logic = () => Promise.reject('a bare string: SECRET-DETAIL-4711');
      const response = await put(request(thing));

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
        const failure = makeFailure();
        logic = () => Promise.reject(failure);
        const response = await put(request(thing));

        expect(expectError(response, 500)).toBe('Internal server error');
      },
    );

    it('answers 503 with Retry-After when the identity provider keys cannot be fetched', async () => {
      const unreachableKeys = verifierFor(() => Promise.reject(new TypeError('fetch failed')));
      handler = thingRoute({ verifyToken: unreachableKeys, ...telemetry });
      const response = await put(request(thing));

      const message = expectRejected(response, 503);
      expect(message).toMatch(/retry/i);
      expect(headerOf(response, 'Retry-After')).toMatch(/^[1-9]\d*$/);
    });

    it('answers 503 with Retry-After before the Lambda timeout when the route never answers', async () => {
      logic = () => new Promise(() => {});
      const started = Date.now();
      const response = await put(request(thing), lambdaContext(700));
      const elapsed = Date.now() - started;

      const message = expectError(response, 503);
      expect(message).toMatch(/retry/i);
      expect(headerOf(response, 'Retry-After')).toMatch(/^[1-9]\d*$/);
      expect(elapsed).toBeLessThan(700);
      // the route's work is told to stop, not left running
      expect(reached).toHaveLength(1);
      expect(reached[0]?.signal.aborted).toBe(true);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('the handler never throws', () => {
    it('answers an event without headers or body with 401', async () => {
      const event = { ...httpApiEvent({}), headers: null };
      await expect(send(handler, event)).resolves.toMatchObject({ statusCode: 401 });
    });

    it('answers an empty event object with 401', async () => {
      await expect(send(handler, {})).resolves.toMatchObject({ statusCode: 401 });
    });

    it('answers an event without headers with a well-formed 401', async () => {
      const response = await put({ body: thing });
      expectRejected(response, 401);
    });
  });
});

// ---------------------------------------------------------------------------------------------
describe('a route open to anyone', () => {
  const openRoute = (dependencies: HttpDependencies) =>
    httpRoute(
      dependencies,
      { name: 'GET /open', access: 'anyone', realm: REALM },
      async (request) => ({
        status: 200,
        body: { caller: request.caller ?? null },
        metric: 'PlantsRead',
      }),
    );

  it('reads no token: it answers without one, and whatever Authorization says', async () => {
    const handler = openRoute(telemetry);
    for (const headers of [{}, { authorization: 'Bearer garbage' }]) {
      const response = await send(handler, httpApiEvent({ method: 'GET', path: '/open', headers }));

      expect(response.statusCode).toBe(200);
      expect(headerOf(response, 'WWW-Authenticate')).toBeUndefined();
      expect(JSON.parse(response.body ?? '')).toStrictEqual({ caller: null });
    }
  });

  it('is the only kind of route that may be built without a token verifier', () => {
    expect(() => openRoute(telemetry)).not.toThrow();
    expect(() => thingRoute(telemetry)).toThrow(/token verifier/);
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
