// A fair share of delivery through `npm start` (docs/webhooks.md, "How delivery is shared"): while
// one caller has hundreds of deliveries waiting for slow receivers, or for receivers that never
// answer and their retries, another caller's events reach its endpoint within 10 seconds of the
// API's answers; the busy caller's deliveries still all go out, none more than twice. Within one
// caller too: its slow or silent endpoint holds back none of its quick one's events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  arrivals,
  type Receiver,
  startReceiver,
} from '../support/endpointReceiver.ts';
import { type LocalService, sendAs, startLocalService } from '../support/localService.ts';

const tokens = {
  busy: '',
  stalled: '',
  other: '',
  slowAndQuick: '',
  silentAndQuick: '',
  putter: '',
};
type Caller = keyof typeof tokens;
let service: LocalService;
const receivers: Receiver[] = [];

const send = (caller: Caller, method: string, path: string, body?: unknown) =>
  sendAs(service.baseUrl, tokens[caller], method, path, body);

/** `count` endpoints of `caller`, each with a receiver of its own answering with `answer`. */
const subscribe = async (caller: Caller, count: number, answer: () => Promise<Answer>) =>
  Promise.all(
    Array.from({ length: count }, async () => {
      const receiver = await startReceiver();
      receiver.answerWith(answer);
      receivers.push(receiver);
      const response = await send(caller, 'POST', '/webhooks', { url: receiver.url });
      expect(response.status).toBe(201);
      return receiver;
    }),
  );

/** The plants a receiver was told of, each once: delivery is at least once. */
const eventsOf = (receiver: Receiver) =>
  new Set(receiver.received.map(({ event }) => event.data.id));

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const until = async (what: string, done: () => boolean, withinMs: number) => {
  const deadline = Date.now() + withinMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs / 1000} s: ${what}`);
    await pause(100);
  }
};

/** `caller` creates `count` plants at once, from `firstId` on. */
const createPlants = async (caller: Caller, firstId: number, count: number) => {
  const ids = Array.from({ length: count }, (_, i) => firstId + i);
  const answers = await Promise.all(
    ids.map((id) => send(caller, 'POST', '/plants', { id, name: `${caller} ${id}` })),
  );
  expect(answers.map(({ status }) => status)).toEqual(ids.map(() => 200));
  return ids;
};

/**
 * The other caller creates a plant, renames it with a PUT and creates another, each once the one
 * before has arrived: how long after the API's answer each arrived at its endpoint, in ms.
 */
const otherCallersDelays = async (endpoint: Receiver, firstId: number) => {
  const changes: [string, string, object][] = [
    ['POST', '/plants', { id: firstId, name: 'Calm' }],
    ['PUT', `/plants/${firstId}`, { name: 'Calm renamed' }],
    ['POST', '/plants', { id: firstId + 1, name: 'Calm too' }],
  ];
  const delays: number[] = [];
  for (const [method, path, body] of changes) {
    const before = endpoint.received.length;
    const response = await send('other', method, path, body);
    expect(response.status).toBe(200);
    const answeredAt = Date.now();
    // well past the 10 s, so that a failure says by how much
    await arrivals(endpoint, before + 1, 0, 60_000);
    const arrival = endpoint.received[before];
    if (!arrival) throw new Error(`the other caller's ${method} ${path} never arrived`);
    delays.push(arrival.receivedAt - answeredAt);
  }
  expect(endpoint.received.map(({ event }) => [event.type, event.data.id])).toEqual([
    ['plant.added', firstId],
    ['plant.updated', firstId],
    ['plant.added', firstId + 1],
  ]);
  return delays;
};

beforeAll(async () => {
  service = await startLocalService();
  for (const caller of Object.keys(tokens) as Caller[])
    tokens[caller] = (await service.token('--sub', caller)).trim();
});
afterAll(async () => {
  await service?.stop();
  await Promise.all(receivers.map((receiver) => receiver.stop()));
});

describe('one caller’s volume delays only that caller', () => {
  it('delivers another caller’s events within 10 s while one caller’s ten slow endpoints have 400 waiting; all 400 arrive, none more than twice', async () => {
    const slow = await subscribe('busy', 10, () => pause(3000).then(() => ({ status: 200 })));
    const [endpoint] = await subscribe('other', 1, async () => ({ status: 200 }));
    if (!endpoint) throw new Error('no endpoint');
    const ids = await createPlants('busy', 30_000, 40);
    await until(
      'the busy caller’s first delivery',
      () => slow.some((r) => r.received.length),
      30_000,
    );

    const delays = await otherCallersDelays(endpoint, 31_000);
    console.log(`the other caller's events arrived ${delays.join(', ')} ms after the answers`);
    expect(
      delays.every((ms) => ms < 10_000),
      `${delays.join(', ')} ms`,
    ).toBe(true);

    // one invocation at a time of ten deliveries of 3 s: about 120 s for the 400
    const all = () => slow.every((receiver) => eventsOf(receiver).size >= ids.length);
    await until('all 400 of the busy caller’s deliveries', all, 240_000);
    for (const receiver of slow) {
      expect(eventsOf(receiver)).toEqual(new Set(ids));
      const times = new Map<string, number>();
      for (const { webhookId } of receiver.received)
        times.set(webhookId, (times.get(webhookId) ?? 0) + 1);
      expect(Math.max(...times.values())).toBeLessThanOrEqual(2);
    }
  }, 360_000);

  it('delivers another caller’s events within 10 s while one caller’s ten endpoints that never answer time out and wait for their retries', async () => {
    const stalled = await subscribe('stalled', 10, () => new Promise<Answer>(() => {}));
    const [endpoint] = await subscribe('other', 1, async () => ({ status: 200 }));
    if (!endpoint) throw new Error('no endpoint');
    await createPlants('stalled', 40_000, 20);
    // the first attempts time out (5 s), and their retries wait on the queue behind the others
    const tried = () => stalled.every((r) => r.received.length >= 1);
    await until('a first attempt to each stalled endpoint', tried, 30_000);

    const delays = await otherCallersDelays(endpoint, 41_000);
    console.log(`the other caller's events arrived ${delays.join(', ')} ms after the answers`);
    expect(
      delays.every((ms) => ms < 10_000),
      `${delays.join(', ')} ms`,
    ).toBe(true);
  }, 180_000);

  it('keeps slow endpoints on the slow lane through their caller’s PUTs and pings: another caller’s events within 1 s', async () => {
    const slow = await subscribe('putter', 3, () => pause(3000).then(() => ({ status: 200 })));
    const [endpoint] = await subscribe('other', 1, async () => ({ status: 200 }));
    if (!endpoint) throw new Error('no endpoint');
    await createPlants('putter', 60_000, 3);
    // their first attempts find them slow; the main lane's batch under way ends
    const tried = () => slow.every((r) => r.received.length >= 1);
    await until('a first attempt to each slow endpoint', tried, 30_000);
    await pause(4000);
    const listed = (await (await send('putter', 'GET', '/webhooks')).json()) as {
      id: string;
      url: string;
    }[];
    // every 2 s: a PUT of each keeping its url, a new plant; a ping of each in the first and third
    // rounds (the caller's 10 a minute)
    let churning = true;
    const churn = (async () => {
      for (let round = 0; churning; round++) {
        for (const { id, url } of listed) {
          expect((await send('putter', 'PUT', `/webhooks/${id}`, { url })).status).toBe(200);
          if (round === 0 || round === 2)
            expect((await send('putter', 'POST', `/webhooks/${id}/ping`)).status).toBe(202);
        }
        await createPlants('putter', 61_000 + round, 1);
        await pause(2000);
      }
    })();
    await pause(2500);

    const delays = await otherCallersDelays(endpoint, 62_000);
    churning = false;
    await churn;
    console.log(`the other caller's events arrived ${delays.join(', ')} ms after the answers`);
    expect(
      delays.every((ms) => ms < 1000),
      `${delays.join(', ')} ms`,
    ).toBe(true);
  }, 180_000);

  it.each([
    ['slowAndQuick', 'answers in 3 s', 50_000, () => pause(3000).then(() => ({ status: 200 }))],
    ['silentAndQuick', 'never answers', 51_000, () => new Promise<Answer>(() => {})],
  ] as const)(
    'delivers a caller’s 20 events to its quick endpoint within 10 s while its other endpoint %s',
    async (caller, _kind, firstId, answer) => {
      const [held] = await subscribe(caller, 1, answer);
      const [quick] = await subscribe(caller, 1, async () => ({ status: 200 }));
      if (!held || !quick) throw new Error('no endpoint');
      const ids = await createPlants(caller, firstId, 20);
      const answeredAt = Date.now();

      await until('the quick endpoint’s 20 events', () => eventsOf(quick).size >= 20, 60_000);
      const last = Math.max(...quick.received.map(({ receivedAt }) => receivedAt)) - answeredAt;
      console.log(`the quick endpoint's last event arrived ${last} ms after the answers`);
      expect(last).toBeLessThan(10_000);
      expect(eventsOf(quick)).toEqual(new Set(ids));
      // the held endpoint gets every one too, in its turn (a silent one: each first attempt)
      // delivery is at least once: a silent endpoint's retry may come before another's first attempt
      await until('the held endpoint’s 20 events', () => eventsOf(held).size >= 20, 120_000);
      expect(eventsOf(held)).toEqual(new Set(ids));
    },
    240_000,
  );
});
