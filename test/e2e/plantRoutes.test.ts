// Every plant route over real HTTP, as `npm start` runs them or (npm run smoke) a deployed stage,
// through a client typed by openapi.yaml (openapi-fetch with openapi-typescript's types): the
// document and the service cannot drift apart without this file failing its type check or its
// tests. Every answer is also checked against the document's schemas and headers.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextPage, startTarget, type Target } from '../support/target.ts';

let target: Target;
let api: Target['api'];
const tokens: Record<'alice' | 'bob', string> = { alice: '', bob: '' };

const as = (caller: keyof typeof tokens) => ({
  headers: { Authorization: `Bearer ${tokens[caller]}` },
});

beforeAll(async () => {
  target = await startTarget();
  tokens.alice = await target.token('alice');
  tokens.bob = await target.token('bob');
  api = target.api;
});
afterAll(() => target?.stop());

/** A raw request, for what a fetch client cannot send: a body without Content-Type. */
const rawRequest = (method: string, path: string, headers: Record<string, string>, body = '') =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest(`${target.baseUrl}${path}`, { method, headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });

describe('the plant lifecycle over HTTP', () => {
  it('creates, reads, updates with If-Match, lists and deletes a plant', async () => {
    const id = target.plantId(101);
    const created = await api.POST('/plants', {
      ...as('alice'),
      body: { id, name: 'Monstera', tag: 'indoor' },
    });
    expect(created.response.status).toBe(200);
    expect(created.data).toEqual({ name: 'Monstera', tag: 'indoor' });

    const read = await api.GET('/plants/{id}', { ...as('alice'), params: { path: { id } } });
    expect(read.data).toEqual({ id, name: 'Monstera', tag: 'indoor' });
    const tagged = await api.GET('/plants', {
      ...as('alice'),
      params: { query: { tag: 'indoor' } },
    });
    expect(tagged.data).toContainEqual({ id, name: 'Monstera', tag: 'indoor' });
    const etag = read.response.headers.get('etag') ?? '';
    expect(etag).toBe('"1"');

    const updated = await api.PUT('/plants/{id}', {
      ...as('alice'),
      params: { path: { id }, header: { 'If-Match': etag } },
      body: { name: 'Monstera deliciosa' },
    });
    expect(updated.data).toEqual({ id, name: 'Monstera deliciosa' });
    expect(updated.response.headers.get('etag')).toBe('"2"');

    const stale = await api.PUT('/plants/{id}', {
      ...as('alice'),
      params: { path: { id }, header: { 'If-Match': etag } },
      body: { name: 'lost update' },
    });
    expect(stale.response.status).toBe(412);
    expect(stale.error).toMatchObject({ error: 412 });

    // replaying the original create after an update is a conflict, not a 200
    const replay = await api.POST('/plants', {
      ...as('alice'),
      body: { id, name: 'Monstera', tag: 'indoor' },
    });
    expect(replay.response.status).toBe(409);

    // oldest first: a stage's test caller with many plants has this one on a later page
    const listed = [];
    let cursor: string | null | undefined;
    do {
      const query = { limit: 100, ...(cursor ? { cursor } : {}) };
      const page = await api.GET('/plants', { ...as('alice'), params: { query } });
      listed.push(...(page.data ?? []));
      cursor = nextPage(target.baseUrl, page.response)?.get('cursor');
    } while (cursor && !listed.some((plant) => plant.id === id));
    expect(listed).toContainEqual({ id, name: 'Monstera deliciosa' });

    const deleted = await api.DELETE('/plants/{id}', { ...as('alice'), params: { path: { id } } });
    expect(deleted.response.status).toBe(204);
    const again = await api.DELETE('/plants/{id}', { ...as('alice'), params: { path: { id } } });
    expect(again.response.status).toBe(404);
    const gone = await api.GET('/plants/{id}', { ...as('alice'), params: { path: { id } } });
    expect(gone.response.status).toBe(404);
  });

  it('patches a plant: only the fields given, null removing the tag, If-Match as PUT', async () => {
    const id = target.plantId(151);
    await api.POST('/plants', { ...as('alice'), body: { id, name: 'Pothos', tag: 'indoor' } });
    const mergePatch = { 'Content-Type': 'application/merge-patch+json' };

    const renamed = await api.PATCH('/plants/{id}', {
      headers: { ...as('alice').headers, ...mergePatch },
      params: { path: { id }, header: { 'If-Match': '"1"' } },
      body: { name: 'Golden pothos' },
    });
    expect(renamed.response.status).toBe(200);
    expect(renamed.data).toEqual({ id, name: 'Golden pothos', tag: 'indoor' });
    expect(renamed.response.headers.get('etag')).toBe('"2"');

    const stale = await api.PATCH('/plants/{id}', {
      headers: { ...as('alice').headers, ...mergePatch },
      params: { path: { id }, header: { 'If-Match': '"1"' } },
      body: { name: 'lost update' },
    });
    expect(stale.response.status).toBe(412);

    // application/json is a merge patch too
    const untagged = await api.PATCH('/plants/{id}', {
      ...as('alice'),
      params: { path: { id } },
      body: { tag: null },
    });
    expect(untagged.data).toEqual({ id, name: 'Golden pothos' });
    const listed = await api.GET('/plants', {
      ...as('alice'),
      params: { query: { tag: 'indoor' } },
    });
    expect(listed.data?.map((plant) => plant.id)).not.toContain(id);

    const missing = await api.PATCH('/plants/{id}', {
      ...as('alice'),
      params: { path: { id: target.plantId(152) } },
      body: { name: 'new' },
    });
    expect(missing.response.status).toBe(404);
  });

  it("keeps each caller's plants private: another's answers as missing, and is never listed", {
    tags: ['local'],
  }, async () => {
    await api.POST('/plants', { ...as('bob'), body: { id: 201, name: "Bob's fern" } });

    const read = await api.GET('/plants/{id}', { ...as('alice'), params: { path: { id: 201 } } });
    const missing = await api.GET('/plants/{id}', {
      ...as('alice'),
      params: { path: { id: 202 } },
    });
    expect(read.response.status).toBe(404);
    expect(read.error?.message.replace('201', 'N')).toBe(
      missing.error?.message.replace('202', 'N'),
    );

    const update = await api.PUT('/plants/{id}', {
      ...as('alice'),
      params: { path: { id: 201 } },
      body: { name: 'mine now' },
    });
    const patch = await api.PATCH('/plants/{id}', {
      ...as('alice'),
      params: { path: { id: 201 } },
      body: { name: 'mine now' },
    });
    const removal = await api.DELETE('/plants/{id}', {
      ...as('alice'),
      params: { path: { id: 201 } },
    });
    const taken = await api.POST('/plants', {
      ...as('alice'),
      body: { id: 201, name: "Bob's fern" },
    });
    const statuses = [update, patch, removal, taken].map(({ response }) => response.status);
    expect(statuses).toEqual([404, 404, 404, 409]);
    expect(taken.error?.message).not.toContain('bob');

    const alicesList = await api.GET('/plants', as('alice'));
    expect(alicesList.data?.map((plant) => plant.id)).not.toContain(201);
    const bobs = await api.GET('/plants/{id}', { ...as('bob'), params: { path: { id: 201 } } });
    expect(bobs.data).toEqual({ id: 201, name: "Bob's fern" });
  });
});

describe('paging over HTTP', () => {
  it('walks every page by its Link header, with plants created between pages', {
    tags: ['local'],
  }, async () => {
    const carol = await target.token('carol');
    const auth = { headers: { Authorization: `Bearer ${carol}` } };
    for (let id = 301; id <= 305; id++) {
      await api.POST('/plants', { ...auth, body: { id, name: `P${id}` } });
    }

    const seen: number[] = [];
    let page = await api.GET('/plants', { ...auth, params: { query: { limit: 2 } } });
    let created = 306;
    for (;;) {
      seen.push(...(page.data ?? []).map((plant) => plant.id));
      const link = page.response.headers.get('link');
      if (!link) break;
      const next = new URL(/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? '');
      expect(next.origin).toBe(target.baseUrl);
      expect(next.pathname).toBe('/plants');
      if (created <= 307)
        await api.POST('/plants', { ...auth, body: { id: created++, name: 'new' } });
      page = await api.GET('/plants', {
        ...auth,
        params: {
          query: {
            limit: Number(next.searchParams.get('limit')),
            cursor: next.searchParams.get('cursor') ?? '',
          },
        },
      });
    }

    expect(seen).toEqual([301, 302, 303, 304, 305, 306, 307]);
  });

  it('refuses a tampered cursor and a bad limit with 400s naming them', async () => {
    const badCursor = await api.GET('/plants', {
      ...as('alice'),
      params: { query: { cursor: 'WyIyMDI2LTExLTIyIiwxXQ.bogus' } },
    });
    const badLimit = await api.GET('/plants', { ...as('alice'), params: { query: { limit: 0 } } });

    expect(badCursor.response.status).toBe(400);
    expect(badCursor.error?.message).toMatch(/\bcursor\b/);
    expect(badLimit.response.status).toBe(400);
    expect(badLimit.error?.message).toMatch(/\blimit\b/);
  });
});

describe('listing by tag over HTTP', () => {
  it("walks one tag's pages by Link, with creates and a re-tag between pages", {
    tags: ['local'],
  }, async () => {
    const dave = await target.token('dave');
    const auth = { headers: { Authorization: `Bearer ${dave}` } };
    for (let id = 401; id <= 406; id++) {
      const tag = id === 403 ? undefined : id === 404 ? 'Indoor' : 'indoor';
      await api.POST('/plants', { ...auth, body: { id, name: `P${id}`, ...(tag ? { tag } : {}) } });
    }
    await api.POST('/plants', { ...as('bob'), body: { id: 499, name: "Bob's", tag: 'indoor' } });

    const seen: number[] = [];
    let page = await api.GET('/plants', {
      ...auth,
      params: { query: { limit: 2, tag: 'indoor' } },
    });
    let step = 0;
    for (;;) {
      seen.push(...(page.data ?? []).map((plant) => plant.id));
      const link = page.response.headers.get('link');
      if (!link) break;
      const next = new URL(/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? '');
      expect(next.searchParams.get('tag')).toBe('indoor');
      // after the first page: one created with the tag, one not yet listed re-tagged away
      if (step++ === 0) {
        await api.POST('/plants', { ...auth, body: { id: 407, name: 'P407', tag: 'indoor' } });
        await api.PUT('/plants/{id}', {
          ...auth,
          params: { path: { id: 405 } },
          body: { name: 'P405', tag: 'outdoor' },
        });
      }
      page = await api.GET('/plants', {
        ...auth,
        params: {
          query: {
            limit: Number(next.searchParams.get('limit')),
            tag: next.searchParams.get('tag') ?? '',
            cursor: next.searchParams.get('cursor') ?? '',
          },
        },
      });
    }

    expect(seen).toEqual([401, 402, 406, 407]);
    const outdoor = await api.GET('/plants', { ...auth, params: { query: { tag: 'outdoor' } } });
    expect(outdoor.data).toEqual([{ id: 405, name: 'P405', tag: 'outdoor' }]);
  });

  it('refuses an empty tag, a cursor from another list and an unknown parameter with 400s naming them', async () => {
    for (let id = target.plantId(411); id <= target.plantId(413); id++) {
      await api.POST('/plants', { ...as('alice'), body: { id, name: `P${id}`, tag: 'fern' } });
    }
    const first = await api.GET('/plants', {
      ...as('alice'),
      params: { query: { limit: 1, tag: 'fern' } },
    });
    const link = first.response.headers.get('link') ?? '';
    const cursor = new URL(/^<([^>]+)>/.exec(link)?.[1] ?? '').searchParams.get('cursor') ?? '';
    // a real cursor, or the refusals below would prove nothing
    expect(cursor).not.toBe('');

    const emptyTag = await api.GET('/plants', { ...as('alice'), params: { query: { tag: '' } } });
    const otherTag = await api.GET('/plants', {
      ...as('alice'),
      params: { query: { tag: 'moss', cursor } },
    });
    const unfiltered = await api.GET('/plants', { ...as('alice'), params: { query: { cursor } } });
    // a filter the document does not have: sent around the typed client's parameters
    const unknown = await api.GET('/plants', {
      ...as('alice'),
      params: { query: { sort: 'name' } as { tag?: string } },
    });

    expect(emptyTag.response.status).toBe(400);
    expect(emptyTag.error?.message).toMatch(/\btag\b/);
    for (const refused of [otherTag, unfiltered]) {
      expect(refused.response.status).toBe(400);
      expect(refused.error?.message).toMatch(/\bcursor\b/);
    }
    expect(unknown.response.status).toBe(400);
    expect(unknown.error?.message).toContain('"sort"');
  });
});

describe('the gateway answers as API Gateway', () => {
  it('answers 415 to a body sent without Content-Type (serverless-offline would invent one)', {
    tags: ['local'],
  }, async () => {
    const response = await rawRequest(
      'POST',
      '/plants',
      { authorization: `Bearer ${tokens.alice}` },
      '{"id":401,"name":"Ivy"}',
    );

    expect(response.status).toBe(415);
    expect(JSON.parse(response.body)).toEqual({
      error: 415,
      message: 'Content-Type must be application/json',
    });
  });

  it('answers an unknown path with our 404 and a known path with another method with 405 and Allow', {
    tags: ['public'],
  }, async () => {
    const unknown = await fetch(`${target.baseUrl}/gardens`);
    const wrongMethod = await fetch(`${target.baseUrl}/plants/1`, { method: 'POST' });

    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 404 });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('DELETE, GET, PATCH, PUT');
    expect(await wrongMethod.json()).toMatchObject({ error: 405 });
  });

  it('answers a call without a token 401 with the Error body and a Bearer challenge', {
    tags: ['public'],
  }, async () => {
    const { response, error } = await api.GET('/plants');

    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="plants"/);
    expect(error).toEqual({ error: 401, message: expect.stringMatching(/Authorization/) });
  });

  it("answers a CORS preflight as the stage's corsAllowedOrigins say", {
    tags: ['public'],
  }, async () => {
    // without an origin said to be allowed: one no stage lists (.invalid never resolves, RFC 2606)
    const origin = target.origin || 'https://smoke.invalid';
    const response = await fetch(`${target.baseUrl}/plants`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST' },
    });

    expect(
      response.headers.get('access-control-allow-origin'),
      target.origin
        ? "the stage does not allow this origin: add it to the stage's corsAllowedOrigins and deploy (docs/deployment.md)"
        : 'the API allows an origin it does not list: check corsAllowedOrigins, or give --origin <an allowed origin>',
    ).toBe(target.origin || null);
  });

  it('refuses a path id that is not canonical', async () => {
    const response = await fetch(`${target.baseUrl}/plants/007`, as('alice'));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ message: expect.stringMatching(/\bid\b/) });
  });
});
