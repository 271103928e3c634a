// The "plant added" webhook through `npm start`, over real HTTP: a plant created with the README's
// curl request arrives at the receiver, signed, once; nothing else does; a restart resumes from
// the stream without delivering a plant twice; and without WEBHOOK_URL the local receiver prints
// each delivery.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalService, startLocalService } from '../support/localService.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';
import { makeWebhookSecret } from '../support/webhookSecrets.ts';

const secret = makeWebhookSecret();
const dataDir = mkdtempSync(join(tmpdir(), 'plant-store-webhooks-e2e-'));
let receiver: WebhookReceiver;
let service: LocalService;
let token: string;

const start = async () => {
  service = await startLocalService(dataDir, {
    WEBHOOK_URL: receiver.url,
    WEBHOOK_SECRET: secret,
  });
  token = (await service.token()).trim();
};

const send = (method: string, path: string, body?: unknown) =>
  fetch(`${service.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const arrivals = async (count: number) => {
  const deadline = Date.now() + 20_000;
  while (receiver.received.length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // long enough for anything that should not come to have come
  await new Promise((resolve) => setTimeout(resolve, 1500));
  return receiver.received.map((delivery) => ({ ...delivery, plant: JSON.parse(delivery.body) }));
};

beforeAll(async () => {
  receiver = await startWebhookReceiver({ secrets: secret });
  await start();
});
afterAll(async () => {
  await service?.stop();
  await receiver?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the plant added webhook through npm start', () => {
  it('delivers a plant created over HTTP, signed, once, and nothing for a replay, a 409, a PUT or a DELETE', async () => {
    expect((await send('POST', '/plants', { id: 1, name: 'Monstera', tag: 'indoor' })).status).toBe(
      200,
    );
    expect((await send('POST', '/plants', { id: 1, name: 'Monstera', tag: 'indoor' })).status).toBe(
      200,
    );
    expect((await send('POST', '/plants', { id: 1, name: 'Other' })).status).toBe(409);
    expect((await send('PUT', '/plants/1', { name: 'Monstera deliciosa' })).status).toBe(200);
    expect((await send('DELETE', '/plants/1')).status).toBe(204);

    const received = await arrivals(1);

    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      plant: { id: 1, name: 'Monstera', tag: 'indoor' },
      verified: true,
      answered: 200,
    });
  });

  it('resumes from the stream after a restart, delivering no plant twice and skipping none', async () => {
    await service.stop();
    // created while the service is down: none, as it stopped; then one after the restart
    await start();
    expect((await send('POST', '/plants', { id: 2, name: 'Fern' })).status).toBe(200);

    const received = await arrivals(2);

    expect(received.map((delivery) => delivery.plant.id)).toEqual([1, 2]);
    // npm start within the test: its start counts in its time
  }, 120_000);
});

describe('npm start without WEBHOOK_URL', () => {
  it('prints each delivery to its local receiver, with the signature checked', async () => {
    const local = await startLocalService();
    try {
      const localToken = (await local.token()).trim();
      const response = await fetch(`${local.baseUrl}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${localToken}`, 'content-type': 'application/json' },
        body: '{"id":7,"name":"Pilea"}',
      });
      expect(response.status).toBe(200);

      const deadline = Date.now() + 20_000;
      while (!local.output().includes('webhook: plant 7') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(local.output()).toMatch(
        /webhook: plant 7 "Pilea" \(webhook-id msg_[\w-]+\): signature ok/,
      );
    } finally {
      await local.stop();
      rmSync(local.dataDir, { recursive: true, force: true });
    }
    // npm start within the test: its start counts in its time
  }, 120_000);
});
