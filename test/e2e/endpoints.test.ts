// A caller's own webhook endpoints over real HTTP, as `npm start` runs them (its table on DynamoDB
// Local, http receivers on this machine allowed) or (npm run smoke) a deployed stage, through the
// client typed by openapi.yaml; every answer checked against the document.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '#lib/plants/eventTypes.ts';
import { startTarget, type Target, WAIT_SECONDS } from '../support/target.ts';

let target: Target;
let api: Target['api'];
const tokens: Record<'carol' | 'dave' | 'erin', string> = { carol: '', dave: '', erin: '' };

const as = (caller: keyof typeof tokens) => ({
  headers: { Authorization: `Bearer ${tokens[caller]}` },
});

beforeAll(async () => {
  target = await startTarget();
  tokens.carol = await target.token('carol');
  tokens.dave = await target.token('dave');
  tokens.erin = await target.token('erin');
  api = target.api;
});
afterAll(() => target?.stop());

describe('a caller’s own webhook endpoints over HTTP', () => {
  it('registers, lists, reads, replaces, rotates and deletes one; the secret is shown only twice', async () => {
    const created = await api.POST('/webhooks', {
      ...as('carol'),
      body: { url: target.endpointUrl('/hooks'), events: ['plant.added'], description: 'Ours' },
    });
    expect(created.response.status).toBe(201);
    const endpoint = created.data;
    if (!endpoint) throw new Error('no endpoint answered');
    expect(endpoint).toMatchObject({
      url: target.endpointUrl('/hooks'),
      events: ['plant.added'],
      description: 'Ours',
      disabled: false,
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(created.response.headers.get('location')).toBe(
      `${target.baseUrl}/webhooks/${endpoint.id}`,
    );
    const path = { path: { id: endpoint.id } };

    const listed = await api.GET('/webhooks', as('carol'));
    // a stage's test caller may have endpoints of its own
    expect(listed.data?.map((e) => e.id)).toContain(endpoint.id);
    const read = await api.GET('/webhooks/{id}', { ...as('carol'), params: path });
    expect(read.data).toEqual({
      id: endpoint.id,
      url: endpoint.url,
      events: endpoint.events,
      description: 'Ours',
      disabled: false,
      createdAt: endpoint.createdAt,
    });

    const replaced = await api.PUT('/webhooks/{id}', {
      ...as('carol'),
      params: path,
      body: { url: target.endpointUrl('/other'), disabled: true },
    });
    expect(replaced.data).toMatchObject({
      url: target.endpointUrl('/other'),
      events: EVENT_TYPES,
      disabled: true,
    });
    expect(replaced.data).not.toHaveProperty('description');

    const rotated = await api.POST('/webhooks/{id}/secret', { ...as('carol'), params: path });
    expect(rotated.data?.secret).toMatch(/^whsec_/);
    expect(rotated.data?.secret).not.toBe(endpoint.secret);

    expect(
      (await api.DELETE('/webhooks/{id}', { ...as('carol'), params: path })).response.status,
    ).toBe(204);
    expect(
      (await api.GET('/webhooks/{id}', { ...as('carol'), params: path })).response.status,
    ).toBe(404);
  });

  it("answers another caller's endpoint as a missing one, and never lists it", {
    tags: ['local'],
  }, async () => {
    const { data } = await api.POST('/webhooks', {
      ...as('carol'),
      body: { url: 'http://127.0.0.1:9/hooks' },
    });
    const path = { path: { id: data?.id ?? '' } };

    expect((await api.GET('/webhooks', as('dave'))).data).toEqual([]);
    const read = await api.GET('/webhooks/{id}', { ...as('dave'), params: path });
    expect(read.response.status).toBe(404);
    const removal = await api.DELETE('/webhooks/{id}', { ...as('dave'), params: path });
    expect(removal.response.status).toBe(404);
    const rotation = await api.POST('/webhooks/{id}/secret', { ...as('dave'), params: path });
    expect(rotation.response.status).toBe(404);
    expect(
      (await api.GET('/webhooks/{id}', { ...as('carol'), params: path })).response.status,
    ).toBe(200);
  });

  it('refuses the 11th endpoint of a caller with a 409 saying so', {
    tags: ['local'],
  }, async () => {
    const { data: before = [] } = await api.GET('/webhooks', as('dave'));
    for (let i = before.length; i < 10; i++) {
      const { response } = await api.POST('/webhooks', {
        ...as('dave'),
        body: { url: `http://127.0.0.1:9/hooks/${i}` },
      });
      expect(response.status).toBe(201);
    }
    const eleventh = await api.POST('/webhooks', {
      ...as('dave'),
      body: { url: 'http://127.0.0.1:9/hooks/eleventh' },
    });
    expect(eleventh.response.status).toBe(409);
    expect(eleventh.error?.message).toMatch(/10 webhook endpoints/);
    expect((await api.GET('/webhooks', as('dave'))).data).toHaveLength(10);
  });

  it('counts pings per caller: ten create, ping, delete cycles, then the 11th ping of the minute is 429', {
    tags: ['local'],
  }, async () => {
    // the eleven within one minute of the clock the count keeps
    const seconds = new Date().getUTCSeconds();
    if (seconds > 45) await sleep((61 - seconds) * 1000);
    const cycle = async (i: number) => {
      const created = await api.POST('/webhooks', {
        ...as('erin'),
        body: { url: `http://127.0.0.1:9/hooks/${i}` },
      });
      const path = { path: { id: created.data?.id ?? '' } };
      const pinged = await api.POST('/webhooks/{id}/ping', { ...as('erin'), params: path });
      await api.DELETE('/webhooks/{id}', { ...as('erin'), params: path });
      return pinged;
    };
    for (let i = 0; i < 10; i++) expect((await cycle(i)).response.status).toBe(202);
    // an endpoint made anew buys no more
    const eleventh = await cycle(10);
    expect(eleventh.response.status).toBe(429);
    expect(eleventh.response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(eleventh.error?.message).toMatch(/all your endpoints together/);
  });

  it('delivers a ping and a plant added to a receiver that answers 2xx, and resends the ping', {
    tags: ['receiver'],
    timeout: (WAIT_SECONDS + 30) * 1000,
  }, async () => {
    const registered = await api.POST('/webhooks', {
      ...as('carol'),
      body: { url: await target.receiver(), events: ['plant.added'], description: 'smoke test' },
    });
    expect(registered.response.status, REGISTRATION_HINTS[registered.response.status]).toBe(201);
    const path = { path: { id: registered.data?.id ?? '' } };
    const pinged = await api.POST('/webhooks/{id}/ping', { ...as('carol'), params: path });
    expect(pinged.response.status).toBe(202);
    const webhookId = pinged.data?.webhookId ?? '';
    const id = target.plantId(1);
    const body = { id, name: 'smoke test webhook' };
    expect((await api.POST('/plants', { ...as('carol'), body })).response.status).toBe(200);

    const deadline = Date.now() + WAIT_SECONDS * 1000;
    let answered: string[] = [];
    for (let delivered = false; !delivered && Date.now() < deadline; await sleep(1000)) {
      const attempts = await api.GET('/webhooks/{id}/attempts', { ...as('carol'), params: path });
      const succeeded = (attempts.data ?? []).filter((a) => a.status && a.status < 300);
      answered = [...new Set(succeeded.map((a) => (a.webhookId === webhookId ? 'ping' : a.type)))];
      delivered = answered.length === 2;
    }
    expect(
      answered.sort(),
      `a 2xx answer from the receiver to each within ${WAIT_SECONDS} s: see what the receiver answered (GET /webhooks/{id}/attempts shows each attempt)`,
    ).toEqual(['ping', 'plant.added']);

    const resent = await api.POST('/webhooks/{id}/attempts/{webhookId}/resend', {
      ...as('carol'),
      params: { path: { ...path.path, webhookId } },
    });
    expect(resent.response.status).toBe(202);
  });
});

/** What to do when the receiver cannot be registered. */
const REGISTRATION_HINTS: Record<number, string> = {
  400: 'the service refused the receiver: a deployed stage takes only a public https URL (docs/webhooks.md, "A caller\'s own endpoints")',
  409: 'the test caller has 10 endpoints already, the most a caller may have: delete one (GET /webhooks, then DELETE /webhooks/{id}) and run again',
};
