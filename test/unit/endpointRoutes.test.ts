// The routes of a caller's own webhook endpoints through the whole pipeline: the fake endpoint
// store, the real token verifier, API Gateway HTTP API events, and the url rule with a resolver of
// the test's (no lookup leaves this process; no connection is made at registration).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Attempt } from '#lib/endpointDeliveries/store.ts';
import { takesType } from '#lib/endpoints/store.ts';
import { sealCursor } from '#lib/http/paging.ts';
import type { HttpHandler } from '#lib/http/pipeline.ts';
import type { HttpResponse } from '#lib/http/types.ts';
import { EVENT_TYPES } from '#lib/plants/eventTypes.ts';
import createEndpoint, { ENDPOINT_LIMIT_MESSAGE } from '#lib/routes/createEndpoint.ts';
import deleteEndpoint from '#lib/routes/deleteEndpoint.ts';
import { HOST_UNRESOLVED, sendsLimitedMessage } from '#lib/routes/endpointReplies.ts';
import getEndpoint from '#lib/routes/getEndpoint.ts';
import listEndpointAttempts from '#lib/routes/listEndpointAttempts.ts';
import listEndpoints from '#lib/routes/listEndpoints.ts';
import pingEndpoint from '#lib/routes/pingEndpoint.ts';
import resendEndpointEvent, {
  endpointDisabledMessage,
  eventNotFoundMessage,
} from '#lib/routes/resendEndpointEvent.ts';
import rotateEndpointSecret from '#lib/routes/rotateEndpointSecret.ts';
import updateEndpoint from '#lib/routes/updateEndpoint.ts';
import type { EndpointPolicy } from '#lib/ssrf/safePost.ts';
import { httpApiEvent, invokeHandler } from '../support/events.ts';
import {
  FakeAttemptStore,
  FakeDeliveryQueue,
  FakeEndpointStore,
} from '../support/fakeEndpointStore.ts';
import { headerOf } from '../support/headers.ts';
import { quietTelemetry } from '../support/telemetry.ts';
import { makeKey, signToken, verifierTrusting } from '../support/tokens.ts';

const key = await makeKey('ES256');
const verifyToken = await verifierTrusting(key);
const tokens = {
  alice: await signToken(key, { subject: 'alice' }),
  bob: await signToken(key, { subject: 'bob' }),
  aliceReader: await signToken(key, { subject: 'alice', claims: { scope: 'plants:read' } }),
};

/** Names as the test's resolver answers them: public, private, or none. */
const ADDRESSES: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example.com': ['93.184.216.34', '10.0.0.7'],
};
const policy: EndpointPolicy = {
  allowPrivate: false,
  resolve: async (host) => {
    if (host === 'flaky.example.com')
      throw Object.assign(new Error('try again'), { code: 'EAI_AGAIN' });
    const addresses = ADDRESSES[host];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  },
};

let store: FakeEndpointStore;
let attemptStore: FakeAttemptStore;
let queue: FakeDeliveryQueue;
beforeEach(() => {
  store = new FakeEndpointStore();
  attemptStore = new FakeAttemptStore();
  queue = new FakeDeliveryQueue();
});

const dependencies = (scopes = {}) => ({
  endpointStore: store,
  attemptStore,
  queue,
  policy,
  verifyToken,
  scopes,
  ...quietTelemetry(),
});

const call = async (
  handler: HttpHandler,
  method: string,
  path: string,
  { body, token = tokens.alice }: { body?: unknown; token?: string } = {},
) => {
  // /webhooks/{id}/attempts/{webhookId}/resend, and the query
  const [rawPath = '', query = ''] = path.split('?');
  const [, , id, , webhookId] = rawPath.split('/');
  const pathParameters = { ...(id ? { id } : {}), ...(webhookId ? { webhookId } : {}) };
  const route = Object.entries(pathParameters).reduce(
    (template, [name, value]) => template.replace(`/${value}`, `/{${name}}`),
    rawPath,
  );
  const response = (await invokeHandler(
    handler,
    httpApiEvent({
      method,
      path: rawPath,
      query,
      route: `${method} ${route}`,
      ...(id ? { pathParameters } : {}),
      headers: {
        host: 'api.example.com',
        'x-forwarded-proto': 'https',
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    }),
  )) as HttpResponse;
  return { status: response.statusCode, response, body: JSON.parse(response.body || 'null') };
};

const sentEvent = {
  type: 'plant.added' as const,
  body: '{"type":"plant.added","timestamp":"2026-11-25T12:00:00.000Z","data":{"id":1,"name":"Fern"}}',
};
/** The n-th attempt of msg_<n>, n minutes after noon. */
const attemptOf = (n: number): Attempt => ({
  webhookId: `msg_${n}`,
  type: 'plant.added',
  attempt: 1,
  at: new Date(Date.UTC(2026, 10, 25, 12, n)).toISOString(),
  status: 500,
  durationMs: 30,
});

const routes = () => ({
  create: createEndpoint.with(dependencies()),
  list: listEndpoints.with(dependencies()),
  get: getEndpoint.with(dependencies()),
  update: updateEndpoint.with(dependencies()),
  remove: deleteEndpoint.with(dependencies()),
  rotate: rotateEndpointSecret.with(dependencies()),
  ping: pingEndpoint.with(dependencies()),
  attempts: listEndpointAttempts.with(dependencies()),
  resend: resendEndpointEvent.with(dependencies()),
});

const register = async (
  body: unknown = { url: 'https://hooks.example.com/plants' },
  token?: string,
) => call(routes().create, 'POST', '/webhooks', { body, ...(token ? { token } : {}) });

describe('POST /webhooks', () => {
  it('registers an endpoint: 201, its Location, every event type by default, and its secret this once', async () => {
    const { status, response, body } = await register();

    expect(status).toBe(201);
    expect(body).toEqual({
      id: expect.stringMatching(/^ep_[\w-]{22}$/),
      url: 'https://hooks.example.com/plants',
      events: [...EVENT_TYPES],
      disabled: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(headerOf(response, 'Location')).toBe(`https://api.example.com/webhooks/${body.id}`);
    expect(Buffer.from(body.secret.slice(6), 'base64')).toHaveLength(32);
    expect(store.endpoints.get(body.id)?.secrets).toEqual([{ secret: body.secret }]);

    const read = await call(routes().get, 'GET', `/webhooks/${body.id}`);
    expect(read.body).not.toHaveProperty('secret');
    expect(JSON.stringify(read.body)).not.toContain(body.secret);
  });

  it('ignores what the caller may not choose: the id, disabled, the secrets, the keys', async () => {
    const chosen = { id: 'ep_mine', disabled: true, secrets: [{ secret: 'whsec_x' }], pk: 'x' };
    const { status, body } = await register({ url: 'https://hooks.example.com/own', ...chosen });

    expect(status).toBe(201);
    expect(body.id).toMatch(/^ep_[\w-]{22}$/);
    expect(body.disabled).toBe(false);
    const stored = store.endpoints.get(body.id);
    expect(stored?.secrets).toEqual([{ secret: body.secret }]);
    expect(stored).not.toHaveProperty('pk');
    expect(store.endpoints.has('ep_mine')).toBe(false);
  });

  it('takes every type when events is left out, a type added after it was stored too, and lists the types of now', async () => {
    const every = await register({ url: 'https://hooks.example.com/every' });
    const listed = await register({ url: 'https://hooks.example.com/listed', events: EVENT_TYPES });

    // a type a later version adds: a name no stored item holds
    const stored = (id: string) => store.endpoints.get(id) ?? { events: [] };
    expect(takesType(stored(every.body.id), 'plant.archived')).toBe(true);
    expect(takesType(stored(listed.body.id), 'plant.archived')).toBe(false);
    for (const type of EVENT_TYPES) expect(takesType(stored(listed.body.id), type)).toBe(true);
    const read = await call(routes().get, 'GET', `/webhooks/${every.body.id}`);
    expect(read.body.events).toEqual([...EVENT_TYPES]);
  });

  it('keeps the events and description given', async () => {
    const { body } = await register({
      url: 'https://hooks.example.com/plants',
      events: ['plant.deleted'],
      description: 'Our shop',
    });
    expect(body).toMatchObject({ events: ['plant.deleted'], description: 'Our shop' });
  });

  it.each([
    ['no url', {}, /^url is required/],
    ['an http url', { url: 'http://hooks.example.com/' }, /^url must be an absolute https URL/],
    ['a relative url', { url: '/plants' }, /^url must be an absolute https URL/],
    ['user info', { url: 'https://user:pw@hooks.example.com/' }, /^url must hold no user info/],
    ['a fragment', { url: 'https://hooks.example.com/#x' }, /^url must hold no fragment/],
    ['a url too long', { url: `https://hooks.example.com/${'a'.repeat(2030)}` }, /at most 2,048/],
    ['a loopback address', { url: 'https://127.0.0.1/' }, /^url must point at public addresses/],
    ['a numeric loopback', { url: 'https://2130706433/' }, /^url must point at public addresses/],
    ['a metadata address', { url: 'https://169.254.169.254/' }, /public addresses/],
    ['a mapped loopback', { url: 'https://[::ffff:127.0.0.1]/' }, /public addresses/],
    [
      'one private address of two, not naming it',
      { url: 'https://internal.example.com/' },
      /^url must point at public addresses only \(internal\.example\.com has an address that is not public\)/,
    ],
    ['a host that does not resolve', { url: 'https://nowhere.example.com/' }, /does not resolve/],
    [
      'an unknown event type',
      { url: 'https://hooks.example.com/', events: ['plant.unknown'] },
      /^events must hold event types/,
    ],
    [
      'no event type',
      { url: 'https://hooks.example.com/', events: [] },
      /^events must name at least one/,
    ],
    [
      'a type twice',
      { url: 'https://hooks.example.com/', events: ['plant.added', 'plant.added'] },
      /twice/,
    ],
    [
      'a long description',
      { url: 'https://hooks.example.com/', description: 'é'.repeat(257) },
      /^description must be at most 256/,
    ],
    [
      'an unpaired surrogate in url',
      { url: 'https://hooks.example.com/\ud800' },
      /^url must be well-formed Unicode/,
    ],
    [
      'a lone low surrogate in description',
      { url: 'https://hooks.example.com/', description: 'shop \udc00' },
      /^description must be well-formed Unicode/,
    ],
  ])('refuses %s with a 400 naming the field, storing nothing', async (_case, request, message) => {
    const { status, body } = await register(request);
    expect(status).toBe(400);
    expect(body.message).toMatch(message);
    expect(store.endpoints.size).toBe(0);
  });

  it('counts a description in code points: 256 emoji are fine', async () => {
    const { status } = await register({
      url: 'https://hooks.example.com/',
      description: '🌱'.repeat(256),
    });
    expect(status).toBe(201);
  });

  it('refuses the 11th with a 409 saying so, and another caller still registers', async () => {
    for (let i = 0; i < 10; i++) expect((await register()).status).toBe(201);

    const eleventh = await register();
    expect(eleventh).toMatchObject({
      status: 409,
      body: { error: 409, message: ENDPOINT_LIMIT_MESSAGE },
    });
    expect((await register(undefined, tokens.bob)).status).toBe(201);
  });

  it('answers a host its resolver could not resolve just now with 503 and Retry-After, not a 400', async () => {
    const { status, response, body } = await register({ url: 'https://flaky.example.com/' });
    expect(status).toBe(503);
    expect(body.message).toBe(HOST_UNRESOLVED);
    expect(headerOf(response, 'Retry-After')).toBeDefined();
    expect(store.endpoints.size).toBe(0);
  });

  it('answers a store outage with 503 and Retry-After', async () => {
    store.unavailable = true;
    const { status, response } = await register();
    expect(status).toBe(503);
    expect(headerOf(response, 'Retry-After')).toBeDefined();
  });

  it('needs the write scope when one is required', async () => {
    const scoped = createEndpoint.with(dependencies({ write: 'plants:write' }));
    const { status } = await call(scoped, 'POST', '/webhooks', {
      body: { url: 'https://hooks.example.com/' },
      token: tokens.aliceReader,
    });
    expect(status).toBe(403);
  });
});

describe('the routes of one endpoint', () => {
  it("list, read, replace, rotate and delete the caller's own; another caller's is a 404 on each", async () => {
    const { body: first } = await register();
    const { body: second } = await register({ url: 'https://hooks.example.com/2' });
    const r = routes();

    expect((await call(r.list, 'GET', '/webhooks')).body.map((e: { id: string }) => e.id)).toEqual([
      first.id,
      second.id,
    ]);
    expect((await call(r.list, 'GET', '/webhooks', { token: tokens.bob })).body).toEqual([]);

    // what a resend or a listing would find, were the endpoint not another caller's
    await attemptStore.record(first.id, attemptOf(1), sentEvent);
    for (const [handler, method, path, body] of [
      [r.get, 'GET', `/webhooks/${first.id}`, undefined],
      [r.update, 'PUT', `/webhooks/${first.id}`, { url: 'https://hooks.example.com/b' }],
      [r.rotate, 'POST', `/webhooks/${first.id}/secret`, undefined],
      [r.remove, 'DELETE', `/webhooks/${first.id}`, undefined],
      [r.ping, 'POST', `/webhooks/${first.id}/ping`, undefined],
      [r.attempts, 'GET', `/webhooks/${first.id}/attempts`, undefined],
      [r.resend, 'POST', `/webhooks/${first.id}/attempts/msg_1/resend`, undefined],
    ] as const) {
      const answer = await call(handler, method, path, { body, token: tokens.bob });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.message).toBe(
        `No webhook endpoint with id ${first.id}: it does not exist, or it is not yours`,
      );
    }
    expect(store.endpoints.get(first.id)?.url).toBe('https://hooks.example.com/plants');
    expect(queue.sent).toEqual([]);

    const replaced = await call(r.update, 'PUT', `/webhooks/${first.id}`, {
      body: { url: 'https://hooks.example.com/new', events: ['plant.added'], disabled: true },
    });
    expect(replaced.body).toMatchObject({
      url: 'https://hooks.example.com/new',
      events: ['plant.added'],
      disabled: true,
    });
    expect(replaced.body).not.toHaveProperty('secret');

    const rotated = await call(r.rotate, 'POST', `/webhooks/${first.id}/secret`);
    expect(rotated).toMatchObject({
      status: 200,
      body: { secret: expect.stringMatching(/^whsec_/) },
    });
    expect(rotated.body.secret).not.toBe(first.secret);
    const secrets = store.endpoints.get(first.id)?.secrets ?? [];
    expect(secrets.map((s) => s.secret)).toEqual([rotated.body.secret, first.secret]);
    const keptFor = Date.parse(secrets[1]?.expiresAt ?? '') - Date.now();
    expect(keptFor).toBeGreaterThan(23.9 * 3600_000);
    expect(keptFor).toBeLessThanOrEqual(24 * 3600_000);

    expect((await call(r.remove, 'DELETE', `/webhooks/${first.id}`)).status).toBe(204);
    expect((await call(r.get, 'GET', `/webhooks/${first.id}`)).status).toBe(404);
    expect((await call(r.remove, 'DELETE', `/webhooks/${first.id}`)).status).toBe(404);
  });

  it('takes each setting a PUT leaves out at its default: every event, no description, enabled', async () => {
    const { body } = await register({
      url: 'https://hooks.example.com/',
      events: ['plant.added'],
      description: 'x',
    });
    const endpoint = store.endpoints.get(body.id);
    if (endpoint) Object.assign(endpoint, { disabled: true, disabledReason: 'answered 410 Gone' });

    const { body: replaced } = await call(routes().update, 'PUT', `/webhooks/${body.id}`, {
      body: { url: 'https://hooks.example.com/' },
    });
    expect(replaced).toEqual({
      id: body.id,
      url: 'https://hooks.example.com/',
      events: [...EVENT_TYPES],
      disabled: false,
      createdAt: body.createdAt,
    });
    expect(takesType(store.endpoints.get(body.id) ?? { events: [] }, 'plant.archived')).toBe(true);
  });

  it('refuses a PUT to a private address, and a malformed id with a 400 naming id', async () => {
    const { body } = await register();
    const put = await call(routes().update, 'PUT', `/webhooks/${body.id}`, {
      body: { url: 'https://10.1.2.3/' },
    });
    expect(put.status).toBe(400);
    expect(store.endpoints.get(body.id)?.url).toBe('https://hooks.example.com/plants');

    const bad = await call(routes().get, 'GET', '/webhooks/ep_short');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^id in the path must be a webhook endpoint id/);
  });
});

describe('ping, attempts and resend', () => {
  const registered = async (disabled = false) => {
    const { body } = await register();
    const endpoint = store.endpoints.get(body.id);
    if (endpoint) endpoint.disabled = disabled;
    return body.id as string;
  };

  it.each([
    ['an enabled endpoint', false],
    ['a disabled one (to test it before enabling it)', true],
  ])(
    'pings %s: 202, its new webhook-id, and a webhook.ping due now on the queue',
    async (_, disabled) => {
      const id = await registered(disabled);
      const before = Date.now();

      const { status, body } = await call(routes().ping, 'POST', `/webhooks/${id}/ping`);

      expect(status).toBe(202);
      expect(body).toEqual({ webhookId: expect.stringMatching(/^msg_[\w-]{22}$/) });
      expect(queue.sent).toEqual([
        {
          owner: 'alice',
          endpointId: id,
          webhookId: body.webhookId,
          type: 'webhook.ping',
          body: expect.any(String),
          // the request's, for every attempt's line
          requestTraceId: expect.stringMatching(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/),
          attempts: 0,
          dueAt: expect.any(Number),
        },
      ]);
      const [delivery] = queue.sent;
      expect(delivery?.dueAt).toBeGreaterThanOrEqual(before);
      expect(JSON.parse(delivery?.body ?? '')).toEqual({
        type: 'webhook.ping',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        data: { endpointId: id },
      });
      // a new webhook-id each time
      const again = await call(routes().ping, 'POST', `/webhooks/${id}/ping`);
      expect(again.body.webhookId).not.toBe(body.webhookId);
    },
  );

  describe('at most 10 pings and resends per caller per minute, all its endpoints together', () => {
    // 15 s into a minute (the next one: the tokens stay valid), whose end Retry-After counts to
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime((Math.floor(Date.now() / 60_000) + 1) * 60_000 + 15_000);
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('answers the 11th, ping or resend, to any of its endpoints, 429 with Retry-After, sending nothing', async () => {
      const id = await registered();
      const other = await registered();
      await attemptStore.record(id, attemptOf(1), sentEvent);
      const ping = () => call(routes().ping, 'POST', `/webhooks/${id}/ping`);
      const resend = () => call(routes().resend, 'POST', `/webhooks/${id}/attempts/msg_1/resend`);
      // another caller learns nothing, and uses up nothing
      const bob = { token: tokens.bob };
      expect((await call(routes().ping, 'POST', `/webhooks/${id}/ping`, bob)).status).toBe(404);
      for (let i = 0; i < 5; i++) {
        expect([(await ping()).status, (await resend()).status]).toEqual([202, 202]);
      }

      for (const limited of [await ping(), await resend()]) {
        expect(limited.status).toBe(429);
        expect(headerOf(limited.response, 'Retry-After')).toBe('45');
        expect(limited.body).toEqual({ error: 429, message: sendsLimitedMessage(45) });
      }
      expect(sendsLimitedMessage(45)).toMatch(/try again in 45 s$/);
      // its other endpoints, and one created anew, share the caller's minute
      const created = await registered();
      for (const endpoint of [other, created])
        expect((await call(routes().ping, 'POST', `/webhooks/${endpoint}/ping`)).status).toBe(429);
      expect(queue.sent).toHaveLength(10);
      // another caller's minute is its own
      const bobs = (await register(undefined, tokens.bob)).body.id as string;
      expect((await call(routes().ping, 'POST', `/webhooks/${bobs}/ping`, bob)).status).toBe(202);
    });

    it('counts no refused resend: a 404 or a 409 uses up none of the 10', async () => {
      const id = await registered(true);
      await attemptStore.record(id, attemptOf(1), sentEvent);
      const resend = (webhookId: string) =>
        call(routes().resend, 'POST', `/webhooks/${id}/attempts/${webhookId}/resend`);
      const ping = () => call(routes().ping, 'POST', `/webhooks/${id}/ping`);

      for (let i = 0; i < 10; i++) {
        expect([(await resend('msg_2')).status, (await resend('msg_1')).status]).toEqual([
          404, 409,
        ]);
      }
      for (let i = 0; i < 10; i++) expect((await ping()).status).toBe(202);
      expect((await ping()).status).toBe(429);
    });
  });

  it('answers a queue that does not take the delivery with 503 and Retry-After, saying so', async () => {
    const id = await registered();
    queue.failing = true;
    for (const [handler, path] of [
      [routes().ping, `/webhooks/${id}/ping`],
      [routes().resend, `/webhooks/${id}/attempts/msg_1/resend`],
    ] as const) {
      await attemptStore.record(id, attemptOf(1), sentEvent);
      const { status, response, body } = await call(handler, 'POST', path);
      expect(status, path).toBe(503);
      expect(body.message).toMatch(/^The deliveries queue is busy or unreachable/);
      expect(headerOf(response, 'Retry-After')).toBeDefined();
    }
  });

  it("lists the endpoint's attempts newest first, a page at a time through Link, and refuses an altered cursor", async () => {
    const id = await registered();
    for (const n of [1, 3, 2]) await attemptStore.record(id, attemptOf(n));
    await attemptStore.record('ep_another', attemptOf(4));

    const first = await call(routes().attempts, 'GET', `/webhooks/${id}/attempts?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual([attemptOf(3), attemptOf(2)]);
    const link = headerOf(first.response, 'Link') ?? '';
    const next = new URL(/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? '');
    expect(next.origin + next.pathname).toBe(`https://api.example.com/webhooks/${id}/attempts`);
    expect(next.searchParams.get('limit')).toBe('2');

    const second = await call(routes().attempts, 'GET', `/webhooks/${id}/attempts${next.search}`);
    expect(second.body).toEqual([attemptOf(1)]);
    expect(headerOf(second.response, 'Link')).toBeUndefined();

    const cursor = next.searchParams.get('cursor') ?? '';
    const other = await registered();
    for (const [what, query] of [
      ['altered', `cursor=${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`],
      ['cut short', `cursor=${cursor.slice(0, 20)}`],
    ]) {
      const refused = await call(routes().attempts, 'GET', `/webhooks/${id}/attempts?${query}`);
      expect(refused.status, what).toBe(400);
      expect(refused.body.message).toMatch(/^cursor is not valid/);
    }
    // a check made by hand over a position that is no attempt's (above every attempt's key too,
    // which DynamoDB would refuse as a start key)
    for (const position of ['event#msg_1', 'attempt#\u{1F331}']) {
      const forged = sealCursor(position, `endpoint#${id}`);
      const notAnAttempt = await call(
        routes().attempts,
        'GET',
        `/webhooks/${id}/attempts?cursor=${forged}`,
      );
      expect(notAnAttempt.status, position).toBe(400);
    }
    const elsewhere = await call(
      routes().attempts,
      'GET',
      `/webhooks/${other}/attempts?cursor=${cursor}`,
    );
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.message).toMatch(/^cursor is not valid/);

    for (const [query, message] of [
      ['limit=0', /^limit must be an integer from 1 to 100/],
      [
        'tag=indoor',
        /^The query parameter "tag" is not known: the list of attempts takes limit and cursor/,
      ],
    ] as const) {
      const refused = await call(routes().attempts, 'GET', `/webhooks/${id}/attempts?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.body.message).toMatch(message);
    }
  });

  it('answers an endpoint store outage with 503 and Retry-After on each, queueing nothing', async () => {
    const id = await registered();
    await attemptStore.record(id, attemptOf(1), sentEvent);
    store.unavailable = true;
    for (const [handler, method, path] of [
      [routes().ping, 'POST', `/webhooks/${id}/ping`],
      [routes().attempts, 'GET', `/webhooks/${id}/attempts`],
      [routes().resend, 'POST', `/webhooks/${id}/attempts/msg_1/resend`],
    ] as const) {
      const { status, response, body } = await call(handler, method, path);
      expect(status, path).toBe(503);
      expect(body.message).toMatch(/^The webhook endpoint store is busy or unreachable/);
      expect(headerOf(response, 'Retry-After')).toBeDefined();
    }
    expect(queue.sent).toEqual([]);
  });

  it('answers no attempts yet with an empty page and no Link', async () => {
    const id = await registered();
    const { status, response, body } = await call(
      routes().attempts,
      'GET',
      `/webhooks/${id}/attempts`,
    );
    expect({ status, body }).toEqual({ status: 200, body: [] });
    expect(headerOf(response, 'Link')).toBeUndefined();
  });

  it('resends an event with its webhook-id and body as first sent, due now', async () => {
    const id = await registered();
    await attemptStore.record(id, attemptOf(1), sentEvent);

    const { status, body } = await call(
      routes().resend,
      'POST',
      `/webhooks/${id}/attempts/msg_1/resend`,
    );

    expect(status).toBe(202);
    expect(body).toEqual({ webhookId: 'msg_1' });
    expect(queue.sent).toEqual([
      {
        owner: 'alice',
        endpointId: id,
        webhookId: 'msg_1',
        ...sentEvent,
        requestTraceId: expect.stringMatching(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/),
        attempts: 0,
        dueAt: expect.any(Number),
      },
    ]);
  });

  it('answers an event it has not sent this endpoint (or no longer keeps) with a 404 saying so', async () => {
    const id = await registered();
    const other = await registered();
    await attemptStore.record(other, attemptOf(1), sentEvent);

    const { status, body } = await call(
      routes().resend,
      'POST',
      `/webhooks/${id}/attempts/msg_1/resend`,
    );

    expect({ status, body }).toEqual({
      status: 404,
      body: { error: 404, message: eventNotFoundMessage('msg_1') },
    });
    expect(queue.sent).toEqual([]);
  });

  it('refuses a resend to a disabled endpoint with a 409 saying to enable it first, sending nothing', async () => {
    const id = await registered(true);
    await attemptStore.record(id, attemptOf(1), sentEvent);

    const { status, body } = await call(
      routes().resend,
      'POST',
      `/webhooks/${id}/attempts/msg_1/resend`,
    );

    expect({ status, body }).toEqual({
      status: 409,
      body: { error: 409, message: endpointDisabledMessage(id) },
    });
    expect(body.message).toMatch(/enable it with PUT/);
    expect(queue.sent).toEqual([]);
  });

  it('refuses a path webhookId that is none with a 400 naming webhookId', async () => {
    const id = await registered();
    for (const webhookId of ['evt_1', 'msg_', `msg_${'a'.repeat(65)}`, 'msg_a%2Eb']) {
      const { status, body } = await call(
        routes().resend,
        'POST',
        `/webhooks/${id}/attempts/${webhookId}/resend`,
      );
      expect(status, webhookId).toBe(400);
      expect(body.message).toMatch(/^webhookId in the path must be/);
    }
  });

  it('needs the write scope to ping and resend, the read scope to list attempts', async () => {
    const id = await registered();
    await attemptStore.record(id, attemptOf(1), sentEvent);
    const scopes = { read: 'plants:read', write: 'plants:write' };
    const reader = { token: tokens.aliceReader };

    const ping = await call(
      pingEndpoint.with(dependencies(scopes)),
      'POST',
      `/webhooks/${id}/ping`,
      reader,
    );
    const resend = await call(
      resendEndpointEvent.with(dependencies(scopes)),
      'POST',
      `/webhooks/${id}/attempts/msg_1/resend`,
      reader,
    );
    const list = await call(
      listEndpointAttempts.with(dependencies(scopes)),
      'GET',
      `/webhooks/${id}/attempts`,
      reader,
    );

    expect([ping.status, resend.status, list.status]).toEqual([403, 403, 200]);
    expect(queue.sent).toEqual([]);
  });
});
