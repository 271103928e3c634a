// A caller's own webhook endpoints over real HTTP, as `npm start` runs them (its table on DynamoDB
// Local, http receivers on this machine allowed), through the client typed by openapi.yaml; every
// answer checked against the document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '#lib/plants/eventTypes.ts';
import { type LocalService, startLocalService } from '../support/localService.ts';
import { typedClient } from '../support/typedClient.ts';

let service: LocalService;
let api: ReturnType<typeof typedClient>;
const tokens: Record<'carol' | 'dave', string> = { carol: '', dave: '' };

const as = (caller: keyof typeof tokens) => ({
  headers: { Authorization: `Bearer ${tokens[caller]}` },
});

beforeAll(async () => {
  service = await startLocalService();
  tokens.carol = (await service.token('--sub', 'carol')).trim();
  tokens.dave = (await service.token('--sub', 'dave')).trim();
  api = typedClient(service.baseUrl);
});
afterAll(() => service?.stop());

describe('a caller’s own webhook endpoints over HTTP', () => {
  it('registers, lists, reads, replaces, rotates and deletes one; the secret is shown only twice', async () => {
    const created = await api.POST('/webhooks', {
      ...as('carol'),
      body: { url: 'http://127.0.0.1:9/hooks', events: ['plant.added'], description: 'Ours' },
    });
    expect(created.response.status).toBe(201);
    const endpoint = created.data;
    if (!endpoint) throw new Error('no endpoint answered');
    expect(endpoint).toMatchObject({
      url: 'http://127.0.0.1:9/hooks',
      events: ['plant.added'],
      description: 'Ours',
      disabled: false,
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(created.response.headers.get('location')).toBe(
      `${service.baseUrl}/webhooks/${endpoint.id}`,
    );
    const path = { path: { id: endpoint.id } };

    const listed = await api.GET('/webhooks', as('carol'));
    expect(listed.data?.map((e) => e.id)).toEqual([endpoint.id]);
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
      body: { url: 'http://127.0.0.1:9/other', disabled: true },
    });
    expect(replaced.data).toMatchObject({
      url: 'http://127.0.0.1:9/other',
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

  it("answers another caller's endpoint as a missing one, and never lists it", async () => {
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

  it('refuses the 11th endpoint of a caller with a 409 saying so', async () => {
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
});
