// A webhook receiver for `npm start` (without WEBHOOK_URL) and the tests (test/support/
// webhookReceiver.ts): Standard Webhooks signatures verified (standardwebhooks), each delivery handed on.
import { createServer, type ServerResponse } from 'node:http';
import { text } from 'node:stream/consumers';
import { Webhook } from 'standardwebhooks';
import { listenLocally } from './freePort.ts';

export interface Delivery {
  webhookId: string;
  timestamp: string;
  body: string;
  /** Whether a signature verified with one of the receiver's secrets, timestamp included. */
  verified: boolean;
}

export const startWebhookReceiver = async ({
  secrets,
  port,
  onDelivery,
}: {
  /** whsec_ secrets separated by spaces: a signature of any of them verifies. */
  secrets: string;
  port?: number | undefined;
  /** Answers each delivery on `response` (or, to hang, never). */
  onDelivery: (delivery: Delivery, response: ServerResponse) => void;
}) => {
  const verifiers = secrets
    .split(/\s+/)
    .filter(Boolean)
    .map((secret) => new Webhook(secret));
  const server = createServer(async (request, response) => {
    const body = await text(request);
    // Node joins a header sent twice into one string (set-cookie aside)
    const headers = request.headers as Record<string, string>;
    const verified = verifiers.some((verifier) => {
      try {
        verifier.verify(body, headers);
        return true;
      } catch {
        return false;
      }
    });
    const { 'webhook-id': webhookId = '', 'webhook-timestamp': timestamp = '' } = headers;
    onDelivery({ webhookId, timestamp, body, verified }, response);
  });
  const listening = await listenLocally(server, port);
  return { url: `http://127.0.0.1:${listening.port}/webhooks/plant-added`, stop: listening.stop };
};
