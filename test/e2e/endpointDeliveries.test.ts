// Deliveries to callers' own webhook endpoints through `npm start`, over real HTTP: plants created,
// updated and deleted by their owners reach the owners' endpoints that take each type (from the
// table's stream, through the endpoint-deliveries queue), signed with each endpoint's secrets, each
// endpoint on its own: a failing one retried on the schedule without holding back a healthy one, a
// 410 disabling it until a PUT, a redirect not followed, a deleted one sent nothing more.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  arrivals,
  type Received,
  type Receiver,
  startReceiver,
} from '../support/endpointReceiver.ts';
import { type LocalService, sendAs, startLocalService } from '../support/localService.ts';

/** Whether `delivery` is signed with `secret`, as a receiver would check it. */
const signedWith = (secret: string, { body, webhookId, timestamp, signatures }: Received) =>
  signatures.some((signature) => {
    try {
      new Webhook(secret).verify(body, {
        'webhook-id': webhookId,
        'webhook-timestamp': timestamp,
        'webhook-signature': signature,
      });
      return true;
    } catch {
      return false;
    }
  });

let service: LocalService;
const tokens: Record<'carol' | 'dave', string> = { carol: '', dave: '' };
const receivers: Receiver[] = [];

const send = (caller: keyof typeof tokens, method: string, path: string, body?: unknown) =>
  sendAs(service.baseUrl, tokens[caller], method, path, body);

/** A new receiver, and an endpoint of `caller` pointing at it. */
const subscribe = async (caller: keyof typeof tokens, settings: { events?: string[] } = {}) => {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const response = await send(caller, 'POST', '/webhooks', { url: receiver.url, ...settings });
  expect(response.status).toBe(201);
  const endpoint = (await response.json()) as { id: string; secret: string };
  return { receiver, ...endpoint };
};

let nextPlantId = 1000;

beforeAll(async () => {
  // a short schedule, so that retries come within the test
  service = await startLocalService(undefined, { WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s' });
  tokens.carol = (await service.token('--sub', 'carol')).trim();
  tokens.dave = (await service.token('--sub', 'dave')).trim();
});
afterAll(async () => {
  await service?.stop();
  await Promise.all(receivers.map((receiver) => receiver.stop()));
});

describe('deliveries to a caller’s own endpoints through npm start', () => {
  it('tells each of the owner’s endpoints the events it takes, signed with its secret, and nothing of another caller’s plants or a replay', async () => {
    const every = await subscribe('carol');
    const deletions = await subscribe('carol', { events: ['plant.deleted'] });
    const daves = await subscribe('dave');
    const id = nextPlantId++;

    expect((await send('carol', 'POST', '/plants', { id, name: 'Fern' })).status).toBe(200);
    // a replay writes nothing: no event
    expect((await send('carol', 'POST', '/plants', { id, name: 'Fern' })).status).toBe(200);
    expect((await send('carol', 'PUT', `/plants/${id}`, { name: 'Fern', tag: 'x' })).status).toBe(
      200,
    );
    expect((await send('carol', 'DELETE', `/plants/${id}`)).status).toBe(204);
    expect((await send('dave', 'POST', '/plants', { id: nextPlantId++, name: 'Ivy' })).status).toBe(
      200,
    );

    // each event goes on its own, so they may arrive in any order (as Svix's and Stripe's)
    const received = (await arrivals(every.receiver, 3)).sort((a, b) =>
      a.event.type.localeCompare(b.event.type),
    );
    expect(received.map(({ event }) => [event.type, event.data])).toEqual([
      ['plant.added', { id, name: 'Fern' }],
      ['plant.deleted', { id }],
      ['plant.updated', { id, name: 'Fern', tag: 'x' }],
    ]);
    for (const delivery of received) {
      expect(signedWith(every.secret, delivery)).toBe(true);
      expect(delivery.event.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(delivery.headers['content-type']).toBe('application/json');
    }
    expect(new Set(received.map(({ webhookId }) => webhookId)).size).toBe(3);

    const deleted = await arrivals(deletions.receiver, 1, 0);
    expect(deleted.map(({ event }) => event.type)).toEqual(['plant.deleted']);
    // the same event has the same webhook-id at every endpoint
    expect(deleted[0]?.webhookId).toBe(received[1]?.webhookId);
    expect(signedWith(deletions.secret, deleted[0] as Received)).toBe(true);
    expect(signedWith(every.secret, deleted[0] as Received)).toBe(false);

    const davesReceived = await arrivals(daves.receiver, 1, 0);
    expect(davesReceived.map(({ event }) => event.type)).toEqual(['plant.added']);
  });

  it('signs with both secrets during a rotation', async () => {
    const endpoint = await subscribe('carol', { events: ['plant.added'] });
    const rotated = await send('carol', 'POST', `/webhooks/${endpoint.id}/secret`);
    expect(rotated.status).toBe(200);
    const { secret } = (await rotated.json()) as { secret: string };

    expect(
      (await send('carol', 'POST', '/plants', { id: nextPlantId++, name: 'Pilea' })).status,
    ).toBe(200);

    const [delivery] = await arrivals(endpoint.receiver, 1, 0);
    if (!delivery) throw new Error('nothing delivered');
    expect(delivery.signatures).toHaveLength(2);
    expect(signedWith(secret, delivery)).toBe(true);
    expect(signedWith(endpoint.secret, delivery)).toBe(true);
  });

  it('retries a failing endpoint on the schedule with the same webhook-id, without holding back a healthy one', async () => {
    const failing = await subscribe('carol', { events: ['plant.added'] });
    failing.receiver.answerWith(() => ({ status: 500 }));
    const healthy = await subscribe('carol', { events: ['plant.added'] });

    expect(
      (await send('carol', 'POST', '/plants', { id: nextPlantId++, name: 'Aloe' })).status,
    ).toBe(200);

    const [delivered] = await arrivals(healthy.receiver, 1, 0);
    const attempts = await arrivals(failing.receiver, 2, 0);
    if (!delivered) throw new Error('nothing delivered to the healthy endpoint');
    // the healthy endpoint had it before the failing one's second attempt (1 s after its first)
    expect(delivered.receivedAt).toBeLessThan(attempts[1]?.receivedAt ?? 0);
    expect(new Set(attempts.map(({ webhookId }) => webhookId))).toEqual(
      new Set([delivered.webhookId]),
    );
    failing.receiver.answerWith(() => ({ status: 200 }));
  });

  it('disables an endpoint that answers 410, sends it nothing more, and a PUT enables it again', async () => {
    const endpoint = await subscribe('carol', { events: ['plant.added'] });
    endpoint.receiver.answerWith(() => ({ status: 410 }));

    expect(
      (await send('carol', 'POST', '/plants', { id: nextPlantId++, name: 'Yucca' })).status,
    ).toBe(200);
    await arrivals(endpoint.receiver, 1);

    const read = await send('carol', 'GET', `/webhooks/${endpoint.id}`);
    expect(await read.json()).toMatchObject({
      disabled: true,
      disabledReason: expect.stringContaining('410'),
    });
    // a healthy endpoint beside it: once it has the next plant, so would the disabled one have
    const control = await subscribe('carol', { events: ['plant.added'] });
    expect(
      (await send('carol', 'POST', '/plants', { id: nextPlantId++, name: 'Cactus' })).status,
    ).toBe(200);
    const [cactus] = await arrivals(control.receiver, 1);
    expect(cactus?.event.data).toMatchObject({ name: 'Cactus' });
    expect(endpoint.receiver.received).toHaveLength(1);

    endpoint.receiver.answerWith(() => ({ status: 200 }));
    const enabled = await send('carol', 'PUT', `/webhooks/${endpoint.id}`, {
      url: endpoint.receiver.url,
      events: ['plant.added'],
    });
    const replaced = (await enabled.json()) as { disabled: boolean; disabledReason?: string };
    expect(replaced).toMatchObject({ disabled: false });
    expect(replaced.disabledReason).toBeUndefined();
    const id = nextPlantId++;
    expect((await send('carol', 'POST', '/plants', { id, name: 'Agave' })).status).toBe(200);
    const received = await arrivals(endpoint.receiver, 2, 0);
    expect(received[1]?.event.data).toEqual({ id, name: 'Agave' });
  });

  it('follows no redirect: a 3xx is a failed attempt, and its Location is never called', async () => {
    const elsewhere = await startReceiver();
    receivers.push(elsewhere);
    const endpoint = await subscribe('carol', { events: ['plant.added'] });
    endpoint.receiver.answerWith(() => ({ status: 307, headers: { location: elsewhere.url } }));

    expect(
      (await send('carol', 'POST', '/plants', { id: nextPlantId++, name: 'Palm' })).status,
    ).toBe(200);

    const attempts = await arrivals(endpoint.receiver, 2, 0);
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(elsewhere.received).toHaveLength(0);
    const recorded = await send('carol', 'GET', `/webhooks/${endpoint.id}/attempts`);
    expect(await recorded.json()).toContainEqual(
      expect.objectContaining({ attempt: 1, status: 307, error: 'redirect not followed' }),
    );
    endpoint.receiver.answerWith(() => ({ status: 200 }));
  });

  it('sends a deleted endpoint nothing more, its waiting retries included', async () => {
    const endpoint = await subscribe('carol', { events: ['plant.added'] });
    endpoint.receiver.answerWith(() => ({ status: 500 }));

    expect(
      (await send('carol', 'POST', '/plants', { id: nextPlantId++, name: 'Ficus' })).status,
    ).toBe(200);
    await arrivals(endpoint.receiver, 1, 0);
    expect((await send('carol', 'DELETE', `/webhooks/${endpoint.id}`)).status).toBe(204);
    const seen = endpoint.receiver.received.length;
    const oak = nextPlantId++;
    expect((await send('carol', 'POST', '/plants', { id: oak, name: 'Oak' })).status).toBe(200);

    // its retries were due after 1 s each: long enough for all of them (one may have been on its
    // way as the endpoint was deleted)
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect(endpoint.receiver.received.length).toBeLessThanOrEqual(seen + 1);
    expect(endpoint.receiver.received.map(({ event }) => event.data.id)).not.toContain(oak);
  });

  it('pings an endpoint, a disabled one too, through the same delivery', async () => {
    const endpoint = await subscribe('carol', { events: ['plant.deleted'] });
    const disabled = await send('carol', 'PUT', `/webhooks/${endpoint.id}`, {
      url: endpoint.receiver.url,
      disabled: true,
    });
    expect(disabled.status).toBe(200);

    const pinged = await send('carol', 'POST', `/webhooks/${endpoint.id}/ping`);
    expect(pinged.status).toBe(202);
    const { webhookId } = (await pinged.json()) as { webhookId: string };

    const [delivery] = await arrivals(endpoint.receiver, 1, 0);
    expect(delivery).toMatchObject({
      webhookId,
      event: { type: 'webhook.ping', data: { endpointId: endpoint.id } },
    });
    expect(signedWith(endpoint.secret, delivery as Received)).toBe(true);
  });

  it('lists the attempts newest first, a failed then a delivered one, paged; a resend keeps the webhook-id', async () => {
    const endpoint = await subscribe('carol', { events: ['plant.added'] });
    let answered = 0;
    endpoint.receiver.answerWith(() => ({ status: answered++ === 0 ? 500 : 200 }));
    const id = nextPlantId++;

    expect((await send('carol', 'POST', '/plants', { id, name: 'Sage' })).status).toBe(200);
    const [first, second] = await arrivals(endpoint.receiver, 2);
    expect(second?.webhookId).toBe(first?.webhookId);

    const listed = await send('carol', 'GET', `/webhooks/${endpoint.id}/attempts`);
    expect(listed.status).toBe(200);
    const attempts = (await listed.json()) as Record<string, unknown>[];
    expect(attempts).toEqual([
      {
        webhookId: first?.webhookId,
        type: 'plant.added',
        attempt: 2,
        at: expect.any(String),
        status: 200,
        durationMs: expect.any(Number),
      },
      {
        webhookId: first?.webhookId,
        type: 'plant.added',
        attempt: 1,
        at: expect.any(String),
        status: 500,
        durationMs: expect.any(Number),
      },
    ]);
    // a page of one, and the Link to the next
    const page = await send('carol', 'GET', `/webhooks/${endpoint.id}/attempts?limit=1`);
    expect(((await page.json()) as unknown[]).length).toBe(1);
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
    if (!next) throw new Error('no Link to the next page');
    const rest = await fetch(next, { headers: { authorization: `Bearer ${tokens.carol}` } });
    expect(((await rest.json()) as { attempt: number }[]).map(({ attempt }) => attempt)).toEqual([
      1,
    ]);
    // another caller sees none of it
    expect((await send('dave', 'GET', `/webhooks/${endpoint.id}/attempts`)).status).toBe(404);

    const resent = await send(
      'carol',
      'POST',
      `/webhooks/${endpoint.id}/attempts/${first?.webhookId}/resend`,
    );
    expect(resent.status).toBe(202);
    const [, , again] = await arrivals(endpoint.receiver, 3, 0);
    expect(again).toMatchObject({ webhookId: first?.webhookId, body: first?.body });
    expect(signedWith(endpoint.secret, again as Received)).toBe(true);
  });
});
