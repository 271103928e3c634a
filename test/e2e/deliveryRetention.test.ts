// No accepted event leaves unrecorded (docs/webhooks.md, "One caller never hurts another"): through
// `npm start` with the delivery lanes' retention set to 10 s, a delivery that has waited half of it
// (behind its endpoint's first attempts, which time out) is given up as an `exhausted` attempt
// before SQS could drop it: listed with the endpoint's attempts, and resendable. (The local SQS,
// fauxqs, drops nothing at any retention: what this proves is the give-up, at half of the setting.)
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Answer, type Receiver, startReceiver } from '../support/endpointReceiver.ts';
import { type LocalService, sendAs, startLocalService } from '../support/localService.ts';

let service: LocalService;
let receiver: Receiver;
let token = '';

const send = (method: string, path: string, body?: unknown) =>
  sendAs(service.baseUrl, token, method, path, body);

beforeAll(async () => {
  // a schedule whose steps come due well within half of it (packaging checks so)
  const settings = { ENDPOINT_DELIVERY_RETENTION_SECONDS: '10', WEBHOOK_RETRY_SCHEDULE: '1s,2s' };
  service = await startLocalService(undefined, settings);
  token = (await service.token('--sub', 'frank')).trim();
  receiver = await startReceiver();
});
afterAll(async () => {
  await service?.stop();
  await receiver?.stop();
});

type Attempt = { webhookId: string; attempt: number; error?: string };

it('gives up a delivery that waited half its queue’s retention as an exhausted attempt, never sent, and resends it', async () => {
  // silent until told otherwise: each attempt times out (5 s) while the deliveries behind it wait
  let answer = (): Promise<Answer> => new Promise(() => {});
  receiver.answerWith(() => answer());
  const created = await send('POST', '/webhooks', { url: receiver.url, events: ['plant.added'] });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  // more than a batch of ten: the others wait behind the first ten's timeouts
  const plants = Array.from({ length: 15 }, (_, i) => ({ id: 70_000 + i, name: `Waiting ${i}` }));
  const answers = await Promise.all(plants.map((plant) => send('POST', '/plants', plant)));
  expect(answers.map(({ status }) => status)).toEqual(plants.map(() => 200));

  const unsent = async () => {
    const listed = await send('GET', `/webhooks/${id}/attempts?limit=100`);
    const attempts = (await listed.json()) as Attempt[];
    return attempts.filter(({ attempt, error }) => attempt === 1 && error?.startsWith('exhausted'));
  };
  const deadline = Date.now() + 60_000;
  let givenUp = await unsent();
  while (givenUp.length === 0) {
    if (Date.now() > deadline) throw new Error('no delivery was given up as exhausted in 60 s');
    await sleep(500);
    givenUp = await unsent();
  }
  const [first] = givenUp;
  if (!first) throw new Error('no attempt given up');
  expect(first.error).toMatch(/^exhausted: it waited \d+ s for an attempt/);
  expect(receiver.received.map(({ webhookId }) => webhookId)).not.toContain(first.webhookId);

  // the caller's redrive: the same event, now that its receiver answers
  answer = async () => ({ status: 200 });
  const resent = await send('POST', `/webhooks/${id}/attempts/${first.webhookId}/resend`);
  expect(resent.status).toBe(202);
  const arrived = () => receiver.received.some(({ webhookId }) => webhookId === first.webhookId);
  while (!arrived()) {
    if (Date.now() > deadline + 30_000) throw new Error('the resend never arrived');
    await sleep(200);
  }
}, 120_000);
