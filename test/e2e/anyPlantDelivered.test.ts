// Any plant the API accepts is delivered as stored, and no caller's plant holds back another's
// (docs/webhooks.md, "One caller never hurts another"), through `npm start` over real HTTP: a name with
// U+FFFF and U+FFFE (which SQS refuses raw in a message) reaches the operator's receiver and its
// owner's endpoint, each after a failed first attempt, so through the retries too; a name of 32,600
// `"` (65 KB, under the 64 KiB body limit, about 130 KB once escaped twice in a delivery message)
// reaches all ten endpoints of its owner, added and then updated, although ten such messages are
// more than one SQS batch holds; and after each, another caller's new plant still reaches that
// caller's endpoint within seconds, exactly once.
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/freePort.ts';
import { type LocalService, sendAs, startLocalService } from '../support/localService.ts';
import {
  type Answer,
  type ReceivedWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../support/webhookReceiver.ts';
import { makeWebhookSecret } from '../support/webhookSecrets.ts';

/** Each failed attempt's wait, for the operator's receiver and the callers' endpoints alike. */
const SCHEDULE = '2s,4s,8s';
const FIRST_WAIT_MS = 2000;
/** How long a delivery may take before a test gives up on it (they take a second or two). */
const ARRIVAL_MS = 20_000;
/** How soon another caller's plant must arrive ("within seconds"). */
const PROMPT_MS = 5000;
/** Long enough after the awaited deliveries for any that should not come to have come. */
const SETTLE_MS = 3000;

// noncharacters in the name (U+FFFF, U+FFFE) and in the tag (U+FDD0, and the astral U+10FFFF),
// with an astral character beside them (U+1F331)
const NONCHARACTER_NAME = 'Moon\uFFFFflower \uFFFE';
const NONCHARACTER_TAG = '\uFDD0 seedling \u{1F331} \u{10FFFF}';
/** 65,200 bytes as a JSON string: a POST of it stays under the 64 KiB limit. */
const HUGE_NAME = '"'.repeat(32_600);

const operatorSecret = makeWebhookSecret();
let service: LocalService;
let operator: WebhookReceiver;
/** How the operator's receiver answers each plant, by id (200 for any other). */
const operatorAnswers = new Map<number, () => Answer>();
const callers = ['alice', 'bob', 'erin'] as const;
type Caller = (typeof callers)[number];
const tokens = {} as Record<Caller, string>;
const receivers: WebhookReceiver[] = [];

interface Endpoint {
  id: string;
  secret: string;
  /** Listens where the endpoint points, and verifies each delivery with the endpoint's secret. */
  receiver: WebhookReceiver;
}
let alices: Endpoint;
let erins: Endpoint;

const send = (caller: Caller, method: string, path: string, body?: unknown) =>
  sendAs(service.baseUrl, tokens[caller], method, path, body);

/** The plant as `GET /plants/{id}` answers it to its owner. */
const read = async (caller: Caller, id: number) => {
  const response = await send(caller, 'GET', `/plants/${id}`);
  expect(response.status, `GET /plants/${id}`).toBe(200);
  return (await response.json()) as Record<string, unknown>;
};

/** A new endpoint of `caller` (every event type), with a receiver listening where it points. */
const subscribe = async (caller: Caller): Promise<Endpoint> => {
  const port = await freePort();
  const response = await send(caller, 'POST', '/webhooks', {
    url: `http://127.0.0.1:${port}/hooks`,
  });
  expect(response.status, `POST /webhooks for ${caller}`).toBe(201);
  const { id, secret } = (await response.json()) as { id: string; secret: string };
  const receiver = await startWebhookReceiver({ secrets: secret, port });
  receivers.push(receiver);
  return { id, secret, receiver };
};

/** A delivery to an endpoint: Standard Webhooks' {type, timestamp, data}. */
type EndpointEvent = { type: string; data: { id?: number; name?: string } };

/** What `receiver` was sent of event `type` of plant `id`, in the order it came. */
const eventsAt = (receiver: WebhookReceiver, type: string, id: number) =>
  receiver.received
    .map((delivery) => ({ ...delivery, event: JSON.parse(delivery.body) as EndpointEvent }))
    .filter(({ event }) => event.type === type && event.data.id === id);

/** What the operator's receiver was sent of plant `id`, in the order it came. */
const operatorDeliveries = (id: number) =>
  operator.received
    .map((delivery) => ({ ...delivery, plant: JSON.parse(delivery.body) as { id?: number } }))
    .filter(({ plant }) => plant.id === id);

/** Polls `done` until it holds or `withinMs` passes: whether it held. */
const waitFor = async (done: () => boolean, withinMs: number) => {
  const deadline = Date.now() + withinMs;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
};

/** Answers 500 to the first delivery it is asked about, 200 to every later one. */
const failingFirst = () => {
  let answered = 0;
  return (): Answer => (answered++ === 0 ? 500 : 200);
};

/** Deliveries as a failure message shows them: status, webhook-id, when (after the first). */
const described = (deliveries: ReceivedWebhook[]) => {
  if (deliveries.length === 0) return 'nothing';
  const start = deliveries[0]?.receivedAt ?? 0;
  return deliveries
    .map((d) => `${d.answered} ${d.webhookId} +${d.receivedAt - start} ms`)
    .join(', ');
};

/** The UTF-8 bytes of `text`, as hex, for a message that shows where two names differ. */
const bytesOf = (text: unknown) => Buffer.from(String(text), 'utf8').toString('hex');

/** Whether `got` is `sent` byte for byte; a message that says how they differ otherwise. */
const sameBytes = (got: unknown, sent: string) => {
  if (typeof got !== 'string') return `${JSON.stringify(got) ?? 'undefined'}, not a string`;
  const received = Buffer.from(got, 'utf8');
  const expected = Buffer.from(sent, 'utf8');
  if (received.equals(expected)) return '';
  let at = 0;
  while (at < expected.length && received[at] === expected[at]) at += 1;
  return `${received.length} bytes, not the ${expected.length} sent: the first that differs is byte ${at} (${received.subarray(Math.max(0, at - 4), at + 4).toString('hex')} around it)`;
};

/** A plant but its name, for a comparison whose failure would not print 65 KB of it. */
const butName = ({ name: _, ...rest }: Record<string, unknown>) => rest;

/**
 * Why the run's functions handed stream records or queue messages back to their source, from
 * its JSON log lines (`npm start -- --json`), counted: what a failure message adds to say why.
 */
const handedBack = () => {
  const reasons = new Map<string, number>();
  for (const line of service.output().split('\n')) {
    if (!line.startsWith('{') || !line.includes('handed back')) continue;
    let logged: { function_name?: string; error?: { name?: string; message?: string } | string };
    try {
      logged = JSON.parse(line);
    } catch {
      continue;
    }
    const { function_name: name = '?', error = {} } = logged;
    const why = typeof error === 'string' ? error : `${error.name}: ${error.message}`;
    const reason = `${name.replace('plant-store-local-', '')} (${why})`;
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  if (reasons.size === 0) return 'the run handed nothing back to its source';
  const counted = [...reasons].map(
    ([reason, times]) => `${times === 1 ? 'once' : `${times} times`} by ${reason}`,
  );
  return `the run's functions handed records back to their source ${counted.join('; ')}`;
};

beforeAll(async () => {
  operator = await startWebhookReceiver({ secrets: operatorSecret, port: await freePort() });
  operator.answerWith((delivery) => operatorAnswers.get(JSON.parse(delivery.body).id)?.() ?? 200);
  service = await startLocalService(
    undefined,
    {
      WEBHOOK_URL: operator.url,
      WEBHOOK_SECRET: operatorSecret,
      WEBHOOK_RETRY_SCHEDULE: SCHEDULE,
    },
    // the functions' log lines whole, so that a failure can say why a record was handed back
    ['--json'],
  );
  for (const caller of callers) tokens[caller] = (await service.token('--sub', caller)).trim();
  alices = await subscribe('alice');
  erins = await subscribe('erin');
});
afterAll(async () => {
  await service?.stop();
  await Promise.all([operator, ...receivers].map((receiver) => receiver?.stop()));
  if (service) rmSync(service.dataDir, { recursive: true, force: true });
});

/** Another caller's new plant reaches that caller's endpoint within seconds, exactly once. */
const anotherCallersPlantArrivesOnce = async (id: number, after: string) => {
  const createdAt = Date.now();
  expect((await send('erin', 'POST', '/plants', { id, name: `Basil ${id}` })).status).toBe(200);
  const arrived = await waitFor(
    () => eventsAt(erins.receiver, 'plant.added', id).length > 0,
    ARRIVAL_MS,
  );
  expect(
    arrived,
    `erin's plant ${id}, created after ${after}: expected at erin's endpoint within ${PROMPT_MS} ms; nothing arrived within ${ARRIVAL_MS} ms (${handedBack()})`,
  ).toBe(true);
  const waited = (eventsAt(erins.receiver, 'plant.added', id)[0]?.receivedAt ?? 0) - createdAt;
  expect(
    waited,
    `erin's plant ${id}, created after ${after}: expected at erin's endpoint within ${PROMPT_MS} ms; it took ${waited} ms (${handedBack()})`,
  ).toBeLessThan(PROMPT_MS);

  await sleep(SETTLE_MS);
  const deliveries = eventsAt(erins.receiver, 'plant.added', id);
  const byWebhookId: Record<string, number> = {};
  for (const { webhookId } of deliveries)
    byWebhookId[webhookId] = (byWebhookId[webhookId] ?? 0) + 1;
  expect(
    byWebhookId,
    `erin's plant ${id}, created after ${after}: expected once at erin's endpoint (one webhook-id, one delivery); ${deliveries.length} deliveries came (${handedBack()})`,
  ).toEqual({ [deliveries[0]?.webhookId ?? '']: 1 });
};

describe('any plant the API accepts is delivered as stored, through npm start', () => {
  it('delivers a name with U+FFFF and U+FFFE (a tag with U+FDD0 and astral characters) byte for byte to the operator’s receiver and its owner’s endpoint, each on a retry after a failed first attempt', async () => {
    const id = 101;
    const sent = { id, name: NONCHARACTER_NAME, tag: NONCHARACTER_TAG };
    operatorAnswers.set(id, failingFirst());
    alices.receiver.answerWith(failingFirst());

    expect((await send('alice', 'POST', '/plants', sent)).status).toBe(200);
    const stored = await read('alice', id);
    expect(stored, 'GET answers the plant as sent').toEqual(sent);
    expect(sameBytes(stored.name, sent.name), 'GET answers the name as sent').toBe('');
    expect(sameBytes(stored.tag, sent.tag), 'GET answers the tag as sent').toBe('');

    const delivered = (deliveries: ReceivedWebhook[]) => deliveries.some((d) => d.answered === 200);
    await waitFor(
      () =>
        delivered(operatorDeliveries(id)) &&
        delivered(eventsAt(alices.receiver, 'plant.added', id)),
      ARRIVAL_MS,
    );
    await sleep(SETTLE_MS);

    /** Each side's deliveries, with the plant each carried. */
    const sides: Record<string, (ReceivedWebhook & { content: Record<string, unknown> })[]> = {
      "the operator's receiver": operatorDeliveries(id).map((d) => ({ ...d, content: d.plant })),
      "alice's endpoint": eventsAt(alices.receiver, 'plant.added', id).map((d) => ({
        ...d,
        content: d.event.data,
      })),
    };
    for (const [where, deliveries] of Object.entries(sides)) {
      const why = `${where}, plant ${id}: expected a first attempt answered 500, then one retry from the retry queue (${FIRST_WAIT_MS} ms later, as WEBHOOK_RETRY_SCHEDULE=${SCHEDULE} says) answered 200, both with one webhook-id and the plant as GET answers it; got ${described(deliveries)} (${handedBack()})`;
      expect
        .soft(
          deliveries.map((d) => d.answered),
          why,
        )
        .toEqual([500, 200]);
      if (deliveries.length === 0) continue;
      expect
        .soft(new Set(deliveries.map((d) => d.webhookId)).size, `${why}: one webhook-id`)
        .toBe(1);
      expect
        .soft(
          deliveries.every((d) => d.verified),
          `${why}: every one signed`,
        )
        .toBe(true);
      const [first, retry] = deliveries;
      if (first && retry) {
        expect
          .soft(
            retry.receivedAt - first.receivedAt,
            `${why}: the retry came ${retry.receivedAt - first.receivedAt} ms after the first attempt, sooner than the schedule's first wait: not from the retry queue`,
          )
          .toBeGreaterThanOrEqual(FIRST_WAIT_MS);
      }
      for (const [attempt, { content }] of deliveries.entries()) {
        expect.soft(content, `${why}: attempt ${attempt + 1}'s plant`).toEqual(stored);
        expect
          .soft(
            sameBytes(content.name, sent.name),
            `${why}: attempt ${attempt + 1}'s name (sent ${bytesOf(sent.name)})`,
          )
          .toBe('');
        expect
          .soft(
            sameBytes(content.tag, sent.tag),
            `${why}: attempt ${attempt + 1}'s tag (sent ${bytesOf(sent.tag)})`,
          )
          .toBe('');
      }
    }
  }, 60_000);

  it('still delivers another caller’s new plant within seconds, once, after the noncharacters', async () => {
    await anotherCallersPlantArrivesOnce(301, 'the plant named with U+FFFF and U+FFFE');
  }, 60_000);

  it('delivers a 65 KB name (32,600 `"`) byte for byte to all ten endpoints of its owner, added and then updated', async () => {
    const id = 201;
    const bobs: Endpoint[] = [];
    for (let n = 0; n < 10; n += 1) bobs.push(await subscribe('bob'));
    // ten is the most a caller may have
    const eleventh = await send('bob', 'POST', '/webhooks', { url: 'http://127.0.0.1:9/hooks' });
    expect(eleventh.status, 'an 11th endpoint').toBe(409);

    const sent = { id, name: HUGE_NAME };
    expect(
      Buffer.byteLength(JSON.stringify(sent)),
      'the body stays under the 64 KiB limit',
    ).toBeLessThan(64 * 1024);
    expect((await send('bob', 'POST', '/plants', sent)).status).toBe(200);
    const added = await read('bob', id);
    expect(sameBytes(added.name, HUGE_NAME), 'GET answers the name as sent').toBe('');
    expect(butName(added)).toEqual({ id });

    const replacement = { name: HUGE_NAME, tag: 'repotted' };
    for (const [type, stored, change] of [
      ['plant.added', added, undefined],
      ['plant.updated', { id, ...replacement }, replacement],
    ] as const) {
      if (change) {
        expect((await send('bob', 'PUT', `/plants/${id}`, change)).status).toBe(200);
        const updated = await read('bob', id);
        expect(sameBytes(updated.name, HUGE_NAME), 'GET answers the name as sent').toBe('');
        expect(butName(updated)).toEqual(butName(stored));
      }
      const reached = () =>
        bobs.filter(({ receiver }) => eventsAt(receiver, type, id).some((d) => d.answered === 200))
          .length;
      await waitFor(() => reached() === bobs.length, ARRIVAL_MS);
      expect(
        reached(),
        `${type} of the 65 KB plant ${id}: expected at all ten of bob's endpoints within ${ARRIVAL_MS} ms; ${reached()} of 10 had it (${handedBack()})`,
      ).toBe(10);

      const deliveries = bobs.map(({ receiver }) => eventsAt(receiver, type, id));
      for (const [n, each] of deliveries.entries()) {
        const why = `${type} of plant ${id} at bob's endpoint ${n + 1}: got ${described(each)}`;
        expect
          .soft(
            each.map((d) => [d.answered, d.verified]),
            `${why}: expected once, signed with its secret`,
          )
          .toEqual([[200, true]]);
        for (const { event } of each) {
          expect.soft(sameBytes(event.data.name, HUGE_NAME), `${why}: the name`).toBe('');
          expect
            .soft(butName(event.data), `${why}: the plant as GET answers it`)
            .toEqual(butName(stored));
        }
      }
      // the same event has the same webhook-id at every endpoint
      expect
        .soft(
          new Set(deliveries.flat().map((d) => d.webhookId)).size,
          `${type} of plant ${id}: one webhook-id at all ten endpoints`,
        )
        .toBe(1);
    }
  }, 90_000);

  it('still delivers another caller’s new plant within seconds, once, after the 65 KB name', async () => {
    await anotherCallersPlantArrivesOnce(302, 'the 65 KB plant of the caller with ten endpoints');
  }, 60_000);
});
