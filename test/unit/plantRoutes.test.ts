// GET /plants, GET, PUT, PATCH and DELETE /plants/{id}, and every other request, through the whole
// pipeline: the one fake store, the real token verifier, API Gateway HTTP API events.
import { beforeEach, describe, expect, it } from 'vitest';
import type { HttpHandler } from '#lib/http/pipeline.ts';
import type { HttpResponse } from '#lib/http/types.ts';
import deletePlant from '#lib/routes/deletePlant.ts';
import getPlant from '#lib/routes/getPlant.ts';
import listPlants from '#lib/routes/listPlants.ts';
import patchPlant from '#lib/routes/patchPlant.ts';
import { unmatchedRouteHandler } from '#lib/routes/unmatchedRoute.ts';
import updatePlant from '#lib/routes/updatePlant.ts';
import { httpApiEvent, invokeHandler, type RequestSpec } from '../support/events.ts';
import { FakePlantStore } from '../support/fakePlantStore.ts';
import { headerOf } from '../support/headers.ts';
import { type RecordedTelemetry, recordTelemetry } from '../support/telemetry.ts';
import { makeKey, signToken, verifierTrusting } from '../support/tokens.ts';

const key = await makeKey('ES256');
const verifyToken = await verifierTrusting(key);
const tokens = {
  alice: await signToken(key, { subject: 'alice' }),
  bob: await signToken(key, { subject: 'bob' }),
  aliceReader: await signToken(key, { subject: 'alice', claims: { scope: 'plants:read' } }),
  aliceWriter: await signToken(key, {
    subject: 'alice',
    claims: { scope: 'plants:read plants:write' },
  }),
};

let store: FakePlantStore;
let telemetry: RecordedTelemetry;

beforeEach(() => {
  store = new FakePlantStore();
  telemetry = recordTelemetry();
});

const dependencies = (scopes = {}) => ({ plantStore: store, verifyToken, scopes, ...telemetry });

const bodyOf = (response: HttpResponse): unknown => JSON.parse(response.body ?? 'null');

/** An Error body with this status; its message. */
const errorMessage = (response: HttpResponse, status: number) => {
  expect(response.statusCode).toBe(status);
  expect(headerOf(response, 'Content-Type')).toBe('application/json');
  const body = bodyOf(response) as { error: number; message: string };
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(body.error).toBe(status);
  return body.message;
};

describe('with API Gateway payload 2.0', () => {
  const call = (
    handler: HttpHandler,
    spec: RequestSpec,
    token: string | undefined = tokens.alice,
  ) =>
    invokeHandler(
      handler,
      httpApiEvent({
        ...spec,
        headers: {
          host: 'plants.example.com',
          'x-forwarded-proto': 'https',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...spec.headers,
        },
      }),
    ) as Promise<HttpResponse>;

  // ---------------------------------------------------------------------------------------------
  describe('GET /plants', () => {
    const list = (query = '', token?: string, handler = listPlants.with(dependencies())) =>
      call(handler, { method: 'GET', path: '/plants', query }, token);

    /** The next page's URL from a Link header, or undefined on the last page. */
    const nextOf = (response: HttpResponse) => {
      const link = headerOf(response, 'Link');
      if (link === undefined) return undefined;
      const match = /^<([^>]+)>; rel="next"$/.exec(link);
      expect(match, `Link: ${link}`).not.toBeNull();
      return new URL(match?.[1] ?? '');
    };

    it("answers the caller's plants oldest first, with their ids, and [] when there is none", async () => {
      store.seed({ id: 2, name: 'Fern', tag: 'shade' }, 'alice');
      store.seed({ id: 1, name: 'Ivy' }, 'alice');
      store.seed({ id: 3, name: "Bob's" }, 'bob');

      const response = await list();

      expect(response.statusCode).toBe(200);
      expect(bodyOf(response)).toStrictEqual([
        { id: 2, name: 'Fern', tag: 'shade' },
        { id: 1, name: 'Ivy' },
      ]);
      expect(headerOf(response, 'Link')).toBeUndefined();
      expect(bodyOf(await list('', tokens.bob))).toStrictEqual([{ id: 3, name: "Bob's" }]);
      store.plants.clear();
      expect(bodyOf(await list())).toStrictEqual([]);
    });

    it('asks the store for 20 by default, and for the limit given', async () => {
      await list();
      await list('limit=100');
      await list('limit=1');

      expect(store.requests.map((r) => (r.args[1] as { limit: number }).limit)).toEqual([
        20, 100, 1,
      ]);
    });

    it('walks every page through the Link header, built from the request host and path', async () => {
      for (let id = 1; id <= 5; id++) store.seed({ id, name: `P${id}` }, 'alice');

      const seen: unknown[] = [];
      let query = 'limit=2';
      const links: URL[] = [];
      for (;;) {
        const response = await list(query);
        seen.push(...(bodyOf(response) as unknown[]));
        const next = nextOf(response);
        if (!next) break;
        links.push(next);
        query = next.search.slice(1);
      }

      expect(seen.map((plant) => (plant as { id: number }).id)).toEqual([1, 2, 3, 4, 5]);
      expect(links).toHaveLength(2);
      for (const link of links) {
        expect(link.origin).toBe('https://plants.example.com');
        expect(link.pathname).toBe('/plants');
        expect(link.searchParams.get('limit')).toBe('2');
      }
    });

    it('answers no Link on a last page that is exactly full', async () => {
      for (let id = 1; id <= 4; id++) store.seed({ id, name: `P${id}` }, 'alice');
      const first = await list('limit=2');
      const second = await list(nextOf(first)?.search.slice(1));

      expect(bodyOf(second)).toHaveLength(2);
      expect(headerOf(second, 'Link')).toBeUndefined();
    });

    it.each([
      ['0', 'limit=0'],
      ['101', 'limit=101'],
      ['-1', 'limit=-1'],
      ['a fraction', 'limit=1.5'],
      ['text', 'limit=ten'],
      ['a leading zero', 'limit=007'],
      ['empty', 'limit='],
      ['repeated', 'limit=5&limit=5'],
    ])('refuses a limit that is %s with a 400 naming limit', async (_case, query) => {
      const response = await list(query);

      expect(errorMessage(response, 400)).toMatch(/\blimit\b/);
      expect(store.requests).toEqual([]);
    });

    it.each([
      ['sort', 'sort=name&limit=3'],
      ['Tag', 'Tag=indoor'],
      ['tags', 'limit=3&tags=indoor'],
      ['', '=indoor'],
    ])(
      'refuses a parameter it does not know (%j) with a 400 naming it, never reaching the store',
      async (name, query) => {
        const response = await list(query);

        expect(errorMessage(response, 400)).toContain(JSON.stringify(name));
        expect(store.requests).toEqual([]);
      },
    );

    it("answers only the caller's plants with exactly the tag, oldest first", async () => {
      store.seed({ id: 1, name: 'Fern', tag: 'indoor' }, 'alice');
      store.seed({ id: 2, name: 'Ivy', tag: 'Indoor' }, 'alice');
      store.seed({ id: 3, name: 'Oak', tag: 'indoors' }, 'alice');
      store.seed({ id: 4, name: 'Moss' }, 'alice');
      store.seed({ id: 5, name: "Bob's", tag: 'indoor' }, 'bob');
      store.seed({ id: 6, name: 'Palm', tag: 'indoor' }, 'alice');

      const response = await list('tag=indoor');

      expect(bodyOf(response)).toStrictEqual([
        { id: 1, name: 'Fern', tag: 'indoor' },
        { id: 6, name: 'Palm', tag: 'indoor' },
      ]);
      expect(store.requests.map((r) => r.args[1])).toEqual([{ limit: 20, tag: 'indoor' }]);
      expect(bodyOf(await list('tag=cactus'))).toStrictEqual([]);
    });

    it('walks the pages of one tag through Link headers that keep limit and tag', async () => {
      for (let id = 1; id <= 7; id++) {
        store.seed({ id, name: `P${id}`, ...(id % 2 ? { tag: 'a b&c' } : {}) }, 'alice');
      }

      const seen: number[] = [];
      let query = `limit=2&tag=${encodeURIComponent('a b&c')}`;
      for (;;) {
        const response = await list(query);
        seen.push(...(bodyOf(response) as { id: number }[]).map((plant) => plant.id));
        const next = nextOf(response);
        if (!next) break;
        expect(next.searchParams.get('limit')).toBe('2');
        expect(next.searchParams.get('tag')).toBe('a b&c');
        query = next.search.slice(1);
      }

      expect(seen).toEqual([1, 3, 5, 7]);
    });

    it.each([
      ['empty', 'tag='],
      ['repeated', 'tag=a&tag=b'],
      ['repeated with the same value', 'tag=a&tag=a'],
    ])('refuses a tag that is %s with a 400 naming tag', async (_case, query) => {
      const response = await list(query);

      expect(errorMessage(response, 400)).toMatch(/\btag\b/);
      expect(store.requests).toEqual([]);
    });

    it.each([
      ['another tag', 'tag=a', 'tag=b'],
      ['the unfiltered list', '', 'tag=a'],
      ['a tagged list, for the unfiltered one', 'tag=a', ''],
      ['a tag, for the same tag in another case', 'tag=a', 'tag=A'],
    ])(
      'refuses a cursor made for %s with a 400 naming cursor, never reaching the store',
      async (_case, madeFor, usedFor) => {
        for (let id = 1; id <= 3; id++) store.seed({ id, name: `P${id}`, tag: 'a' }, 'alice');
        for (let id = 4; id <= 6; id++) store.seed({ id, name: `P${id}`, tag: 'b' }, 'alice');
        const next = nextOf(await list(`limit=1&${madeFor}`));
        const cursor = next?.searchParams.get('cursor') ?? '';
        store.requests.length = 0;

        const response = await list(`limit=1&${usedFor}&cursor=${cursor}`);

        expect(errorMessage(response, 400)).toMatch(/\bcursor\b/);
        expect(store.requests).toEqual([]);
      },
    );

    it.each([
      ['garbage', () => 'not-a-cursor'],
      ['edited', (cursor: string) => `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`],
      ['truncated', (cursor: string) => cursor.slice(0, 10)],
      ['repeated', (cursor: string) => `${cursor}&cursor=${cursor}`],
    ])(
      'refuses a %s cursor with a 400 naming cursor, never reaching the store',
      async (_case, spoil) => {
        for (let id = 1; id <= 3; id++) store.seed({ id, name: `P${id}` }, 'alice');
        const cursor = nextOf(await list('limit=1'))?.searchParams.get('cursor') ?? '';
        store.requests.length = 0;

        const response = await list(`cursor=${spoil(cursor)}`);

        expect(errorMessage(response, 400)).toMatch(/\bcursor\b/);
        expect(store.requests).toEqual([]);
      },
    );

    it("refuses another caller's cursor", async () => {
      for (let id = 1; id <= 3; id++) store.seed({ id, name: `P${id}` }, 'alice');
      const aliceNext = nextOf(await list('limit=1'));

      const response = await list(aliceNext?.search.slice(1), tokens.bob);

      expect(errorMessage(response, 400)).toMatch(/\bcursor\b/);
    });

    it('answers 503 with Retry-After when the store is unavailable', async () => {
      store.fault = 'unavailable';
      const response = await list();

      expect(errorMessage(response, 503)).toMatch(/retry/i);
      expect(headerOf(response, 'Retry-After')).toBe('1');
    });

    it('requires the read scope when the deployment sets one, and only that', async () => {
      const scoped = listPlants.with(dependencies({ read: 'plants:read', write: 'plants:write' }));

      const refused = await list('', tokens.alice, scoped);
      expect(errorMessage(refused, 403)).toContain('plants:read');
      expect(headerOf(refused, 'WWW-Authenticate')).toBe(
        'Bearer realm="plants", error="insufficient_scope", scope="plants:read"',
      );
      expect((await list('', tokens.aliceReader, scoped)).statusCode).toBe(200);
    });

    it('answers 401 with the challenge without a token', async () => {
      const response = await list('', '');
      errorMessage(response, 401);
      expect(headerOf(response, 'WWW-Authenticate')).toBe('Bearer realm="plants"');
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('GET /plants/{id}', () => {
    const get = (id: string, token?: string, handler = getPlant.with(dependencies())) =>
      call(
        handler,
        { method: 'GET', path: `/plants/${id}`, route: 'GET /plants/{id}', pathParameters: { id } },
        token,
      );

    it("answers the caller's plant with its id and its version as a strong ETag", async () => {
      store.seed({ id: 7, name: 'Fern', tag: 'shade' }, 'alice', 3);

      const response = await get('7');

      expect(response.statusCode).toBe(200);
      expect(bodyOf(response)).toStrictEqual({ id: 7, name: 'Fern', tag: 'shade' });
      expect(headerOf(response, 'ETag')).toBe('"3"');
      expect(headerOf(response, 'Cache-Control')).toBe('no-store');
    });

    it("answers another caller's plant exactly as a missing one", async () => {
      store.seed({ id: 7, name: 'Fern' }, 'bob');

      const theirs = await get('7');
      const missing = await get('8');

      expect(errorMessage(theirs, 404).replace('7', 'N')).toBe(
        errorMessage(missing, 404).replace('8', 'N'),
      );
      expect(theirs.body).not.toContain('bob');
    });

    it('accepts the edges of the id range and 0', async () => {
      for (const id of ['9007199254740991', '-9007199254740991', '0']) {
        expect((await get(id)).statusCode).toBe(404);
      }
      expect(store.requests.map((r) => r.args[0])).toEqual([
        9007199254740991, -9007199254740991, 0,
      ]);
    });

    it.each([
      '7.0',
      '007',
      '1e3',
      '+7',
      'seven',
      '9007199254740992',
      '-9007199254740992',
      '99999999999999999999999',
      ' 7',
    ])('refuses the path id %j with a 400 naming id', async (id) => {
      const response = await get(id);

      expect(errorMessage(response, 400)).toMatch(/\bid\b/);
      expect(store.requests).toEqual([]);
    });

    it('requires the read scope when set', async () => {
      const scoped = getPlant.with(dependencies({ read: 'plants:read' }));
      expect((await get('1', tokens.alice, scoped)).statusCode).toBe(403);
      expect((await get('1', tokens.aliceReader, scoped)).statusCode).toBe(404);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('PUT /plants/{id}', () => {
    const put = (
      id: string,
      body: string | undefined,
      headers: Record<string, string> = {},
      token?: string,
      handler = updatePlant.with(dependencies()),
    ) =>
      call(
        handler,
        {
          method: 'PUT',
          path: `/plants/${id}`,
          route: 'PUT /plants/{id}',
          pathParameters: { id },
          headers: { 'content-type': 'application/json', ...headers },
          ...(body === undefined ? {} : { body }),
        },
        token,
      );

    it('replaces name and tag, answers the plant with its new ETag, and removes a tag left out', async () => {
      store.seed({ id: 7, name: 'Fern', tag: 'shade' }, 'alice');

      const renamed = await put('7', '{"name":"Fern II","tag":"sun"}');
      const untagged = await put('7', '{"name":"Fern III"}');

      expect(renamed.statusCode).toBe(200);
      expect(bodyOf(renamed)).toStrictEqual({ id: 7, name: 'Fern II', tag: 'sun' });
      expect(headerOf(renamed, 'ETag')).toBe('"2"');
      expect(bodyOf(untagged)).toStrictEqual({ id: 7, name: 'Fern III' });
      expect(headerOf(untagged, 'ETag')).toBe('"3"');
      expect(store.plants.get(7)).toMatchObject({ name: 'Fern III', version: 3 });
      expect(store.plants.get(7)).not.toHaveProperty('tag');
    });

    it('updates with a matching If-Match, and answers 412 with nothing written for a stale one', async () => {
      store.seed({ id: 7, name: 'Fern' }, 'alice');

      const first = await put('7', '{"name":"A"}', { 'if-match': '"1"' });
      const stale = await put('7', '{"name":"B"}', { 'if-match': '"1"' });

      expect(first.statusCode).toBe(200);
      expect(errorMessage(stale, 412)).toMatch(/read it again/);
      expect(store.plants.get(7)).toMatchObject({ name: 'A', version: 2 });
    });

    it.each([
      ['*', 200],
      ['"9", "1"', 200],
      ['W/"1"', 412],
      ['"abc"', 412],
    ])('takes If-Match: %s as RFC 9110 says (%i)', async (ifMatch, status) => {
      store.seed({ id: 7, name: 'Fern' }, 'alice');
      expect((await put('7', '{"name":"A"}', { 'if-match': ifMatch })).statusCode).toBe(status);
    });

    it('refuses an If-Match of more than 100 distinct entity tags, and counts repeats once', async () => {
      store.seed({ id: 7, name: 'Fern' }, 'alice');
      const tags = (count: number, tag: (i: number) => string) =>
        Array.from({ length: count }, (_, i) => tag(i)).join(', ');

      expect(
        errorMessage(
          await put('7', '{"name":"A"}', { 'if-match': tags(101, (i) => `"${i + 2}"`) }),
          400,
        ),
      ).toMatch(/If-Match/);
      expect(
        (await put('7', '{"name":"A"}', { 'if-match': tags(150, () => '"1"') })).statusCode,
      ).toBe(200);
    });

    it('refuses a malformed If-Match with a 400 naming it', async () => {
      store.seed({ id: 7, name: 'Fern' }, 'alice');
      expect(errorMessage(await put('7', '{"name":"A"}', { 'if-match': '1' }), 400)).toMatch(
        /If-Match/,
      );
    });

    it('accepts the id in the body when it is the path id, and refuses another with a 400 naming id', async () => {
      store.seed({ id: 7, name: 'Fern' }, 'alice');

      expect((await put('7', '{"id":7,"name":"A"}')).statusCode).toBe(200);
      expect((await put('7', '{"id":7.0,"name":"A"}')).statusCode).toBe(200);
      expect(errorMessage(await put('7', '{"id":8,"name":"B"}'), 400)).toMatch(/\bid\b/);
      expect(store.plants.get(7)?.name).toBe('A');
    });

    it("never creates a plant, and answers another caller's plant as a missing one", async () => {
      store.seed({ id: 7, name: 'Fern' }, 'bob');

      errorMessage(await put('7', '{"name":"mine now"}'), 404);
      errorMessage(await put('8', '{"name":"new"}'), 404);
      expect(store.plants.get(7)?.name).toBe('Fern');
      expect(store.plants.has(8)).toBe(false);
    });

    it.each([
      ['no name', '{"tag":"x"}', 400, /\bname\b/],
      ['a null tag', '{"name":"A","tag":null}', 400, /\btag\b/],
      ['not JSON', '{"name":', 400, /JSON/],
      ['no body', undefined, 400, /body/i],
    ])('refuses %s before the store sees it', async (_case, body, status, message) => {
      store.seed({ id: 7, name: 'Fern' }, 'alice');
      expect(errorMessage(await put('7', body), status)).toMatch(message);
      expect(store.requests.filter((r) => r.method === 'update')).toEqual([]);
    });

    it('checks the media type before the path id (docs/api.md order)', async () => {
      errorMessage(await put('abc', '{"name":"A"}', { 'content-type': 'text/plain' }), 415);
    });

    it('requires the write scope when set, and the read scope does not do', async () => {
      store.seed({ id: 7, name: 'Fern' }, 'alice');
      const scoped = updatePlant.with(dependencies({ read: 'plants:read', write: 'plants:write' }));
      expect((await put('7', '{"name":"A"}', {}, tokens.aliceReader, scoped)).statusCode).toBe(403);
      expect((await put('7', '{"name":"A"}', {}, tokens.aliceWriter, scoped)).statusCode).toBe(200);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('PATCH /plants/{id}', () => {
    const patch = (
      id: string,
      body: string | undefined,
      headers: Record<string, string> = {},
      token?: string,
      handler = patchPlant.with(dependencies()),
    ) =>
      call(
        handler,
        {
          method: 'PATCH',
          path: `/plants/${id}`,
          route: 'PATCH /plants/{id}',
          pathParameters: { id },
          headers: { 'content-type': 'application/merge-patch+json', ...headers },
          ...(body === undefined ? {} : { body }),
        },
        token,
      );

    it('changes only the fields given, removes a tag given null, and keeps one left out', async () => {
      store.seed({ id: 7, name: 'Fern', tag: 'shade' }, 'alice');

      const renamed = await patch('7', '{"name":"Fern II"}');
      expect(renamed.statusCode).toBe(200);
      expect(bodyOf(renamed)).toStrictEqual({ id: 7, name: 'Fern II', tag: 'shade' });
      expect(headerOf(renamed, 'ETag')).toBe('"2"');

      const retagged = await patch('7', '{"tag":"sun"}');
      expect(bodyOf(retagged)).toStrictEqual({ id: 7, name: 'Fern II', tag: 'sun' });

      const untagged = await patch('7', '{"tag":null}');
      expect(bodyOf(untagged)).toStrictEqual({ id: 7, name: 'Fern II' });
      expect(headerOf(untagged, 'ETag')).toBe('"4"');
      expect(store.plants.get(7)).not.toHaveProperty('tag');
    });

    it('writes a new version for an empty patch too, and ignores properties it does not know', async () => {
      store.seed({ id: 7, name: 'Fern', tag: 'shade' }, 'alice');

      const empty = await patch('7', '{"color":"green"}');

      expect(bodyOf(empty)).toStrictEqual({ id: 7, name: 'Fern', tag: 'shade' });
      expect(headerOf(empty, 'ETag')).toBe('"2"');
      expect(store.requests.filter((r) => r.method === 'update')).toHaveLength(1);
    });

    it.each([
      'application/json',
      'application/merge-patch+json; charset=utf-8',
      'Application/JSON',
    ])('takes %s as a merge patch', async (contentType) => {
      store.seed({ id: 7, name: 'Fern', tag: 'shade' }, 'alice');
      const response = await patch('7', '{"tag":null}', { 'content-type': contentType });
      expect(bodyOf(response)).toStrictEqual({ id: 7, name: 'Fern' });
    });

    it.each(['application/json-patch+json', 'application/vnd.api+json', 'text/plain'])(
      'refuses %s with a 415 naming the two it takes, writing nothing',
      async (contentType) => {
        store.seed({ id: 7, name: 'Fern', tag: 'shade' }, 'alice');
        expect(errorMessage(await patch('7', '[]', { 'content-type': contentType }), 415)).toBe(
          'Content-Type must be application/merge-patch+json or application/json',
        );
        expect(store.requests.filter((r) => r.method === 'update')).toEqual([]);
      },
    );

    it('updates with a matching If-Match, and answers 412 with nothing written for a stale one', async () => {
      store.seed({ id: 7, name: 'Fern' }, 'alice');

      const first = await patch('7', '{"name":"A"}', { 'if-match': '"1"' });
      const stale = await patch('7', '{"name":"B"}', { 'if-match': '"1"' });

      expect(first.statusCode).toBe(200);
      expect(errorMessage(stale, 412)).toMatch(/read it again/);
      expect(store.plants.get(7)).toMatchObject({ name: 'A', version: 2 });
    });

    it("never creates a plant, and answers another caller's plant as a missing one", async () => {
      store.seed({ id: 7, name: 'Fern' }, 'bob');

      errorMessage(await patch('7', '{"name":"mine now"}'), 404);
      errorMessage(await patch('8', '{"name":"new"}'), 404);
      expect(store.plants.get(7)?.name).toBe('Fern');
      expect(store.plants.has(8)).toBe(false);
    });

    it.each([
      ['a null name', '{"name":null}', 400, /\bname\b/],
      ['a name that is not a string', '{"name":7}', 400, /\bname\b/],
      ['a tag that is not a string', '{"tag":["a"]}', 400, /\btag\b/],
      ['another id', '{"id":8}', 400, /\bid\b/],
      ['a null id', '{"id":null}', 400, /\bid\b/],
      ['an array', '[]', 400, /merge patch of a Plant/],
      ['not JSON', '{"name":', 400, /JSON/],
      ['no body', undefined, 400, /body/i],
    ])('refuses %s, writing nothing', async (_case, body, status, message) => {
      store.seed({ id: 7, name: 'Fern', tag: 'shade' }, 'alice');
      expect(errorMessage(await patch('7', body), status)).toMatch(message);
      expect(store.plants.get(7)).toMatchObject({ name: 'Fern', tag: 'shade', version: 1 });
    });

    it('accepts the id in the body when it is the path id', async () => {
      store.seed({ id: 7, name: 'Fern' }, 'alice');
      expect((await patch('7', '{"id":7,"name":"A"}')).statusCode).toBe(200);
    });

    it('requires the write scope when set, and the read scope does not do', async () => {
      store.seed({ id: 7, name: 'Fern' }, 'alice');
      const scoped = patchPlant.with(dependencies({ read: 'plants:read', write: 'plants:write' }));
      expect((await patch('7', '{"name":"A"}', {}, tokens.aliceReader, scoped)).statusCode).toBe(
        403,
      );
      expect((await patch('7', '{"name":"A"}', {}, tokens.aliceWriter, scoped)).statusCode).toBe(
        200,
      );
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('DELETE /plants/{id}', () => {
    const remove = (id: string, token?: string, handler = deletePlant.with(dependencies())) =>
      call(
        handler,
        {
          method: 'DELETE',
          path: `/plants/${id}`,
          route: 'DELETE /plants/{id}',
          pathParameters: { id },
        },
        token,
      );

    it('answers 204 without a body, then 404 for a retry', async () => {
      store.seed({ id: 7, name: 'Fern' }, 'alice');

      const deleted = await remove('7');
      const again = await remove('7');

      expect(deleted.statusCode).toBe(204);
      expect(deleted.body).toBeUndefined();
      expect(headerOf(deleted, 'Content-Type')).toBeUndefined();
      errorMessage(again, 404);
      expect(store.plants.size).toBe(0);
    });

    it("keeps another caller's plant, answering as if it were missing", async () => {
      store.seed({ id: 7, name: 'Fern' }, 'bob');

      expect(errorMessage(await remove('7'), 404)).not.toContain('bob');
      expect(store.plants.has(7)).toBe(true);
    });

    it('refuses a path id that is not canonical', async () => {
      expect(errorMessage(await remove('07'), 400)).toMatch(/\bid\b/);
    });

    it('counts each outcome with its own metric', async () => {
      store.seed({ id: 7, name: 'Fern' }, 'alice');
      await remove('7');
      await remove('7');
      const outcomes = telemetry.metricNames().filter((name) => name !== 'ColdStart');
      expect(outcomes).toEqual(['PlantsDeleted', 'PlantsNotFound']);
      const lines = telemetry.documents().filter((doc) => doc.message);
      expect(lines.map((line) => [line.route, line.outcome, line.detail])).toEqual([
        ['DELETE /plants/{id}', 'deleted', undefined],
        ['DELETE /plants/{id}', 'notFound', 'absent'],
      ]);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('any other request', () => {
    const handler = () => unmatchedRouteHandler(telemetry);
    const other = (method: string, path: string) =>
      call(handler(), { method, path, route: '$default' }, undefined);

    it.each(['/', '/plant', '/plants/7/leaves', '/plants/', '/admin'])(
      'answers %s with our 404 Error body, without asking for a token',
      async (path) => {
        expect(errorMessage(await other('GET', path), 404)).toContain('/plants');
      },
    );

    it.each([
      ['PUT', '/plants', 'GET, POST'],
      ['DELETE', '/plants', 'GET, POST'],
      ['PATCH', '/plants', 'GET, POST'],
      ['POST', '/plants/7', 'DELETE, GET, PATCH, PUT'],
    ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
      const response = await other(method, path);

      expect(errorMessage(response, 405)).toContain(method);
      expect(headerOf(response, 'Allow')).toBe(allow);
    });

    it('logs the request under the one route $default, its path cut short', async () => {
      const long = `/${'a'.repeat(5000)}`;
      await other('GET', '/plant');
      await other('DELETE', long);

      const lines = telemetry.documents().filter((doc) => doc.message);
      expect(lines.map(({ route, method, path }) => [route, method, path])).toEqual([
        ['$default', 'GET', '/plant'],
        ['$default', 'DELETE', `${long.slice(0, 200)}…`],
      ]);
      // the path is in the line's reason too, as the caller is told it: cut short there as well
      expect(telemetry.text().length).toBeLessThan(2000);
    });
  });
});
