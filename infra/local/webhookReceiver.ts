// A webhook receiver for `npm start` (without WEBHOOK_URL) and the tests: Standard Webhooks
// signatures verified (standardwebhooks), each delivery kept, answered as its test sets (200).
import { createServer } from 'node:http';
import { text } from 'node:stream/consumers';
import { Webhook } from 'standardwebhooks';
import { listenLocally } from './listen.ts';

export interface ReceivedWebhook {
  webhookId: string;
  timestamp: string;
  body: string;
  /** Whether a signature verified with one of the receiver's secrets, timestamp included. */
  verified: boolean;
  /** The status it was answered with, or 'hang' when it got none. */
  answered: number | 'hang';
  receivedAt: number;
}

/** A delivery's answer: a status (with headers, as Retry-After), or 'hang' to answer nothing. */
export type Answer = number | 'hang' | { status: number; headers: Record<string, string> };

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** How the next deliveries are answered; the default answers 200. */
  answerWith: (
    answer: (delivery: Omit<ReceivedWebhook, 'answered' | 'receivedAt'>) => Answer,
  ) => void;
  stop: () => Promise<void>;
}

export const startWebhookReceiver = async ({
  secrets,
  port,
  onDelivery,
}: {
  /** whsec_ secrets separated by spaces: a signature of any of them verifies. */
  secrets: string;
  port?: number;
  onDelivery?: (delivery: ReceivedWebhook) => void;
}): Promise<WebhookReceiver> => {
  const verifiers = secrets
    .split(/\s+/)
    .filter(Boolean)
    .map((secret) => new Webhook(secret));
  const received: ReceivedWebhook[] = [];
  let answer: Parameters<WebhookReceiver['answerWith']>[0] = () => 200;
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
    const delivery = { webhookId, timestamp, body, verified };
    const given = verified ? answer(delivery) : 401;
    const status = typeof given === 'object' ? given.status : given;
    const answered = { ...delivery, answered: status, receivedAt: Date.now() };
    received.push(answered);
    onDelivery?.(answered);
    if (typeof given === 'object') response.writeHead(given.status, given.headers).end();
    else if (given !== 'hang') response.writeHead(given).end();
  });
  const listening = await listenLocally(server, port);
  return {
    url: `http://127.0.0.1:${listening.port}/webhooks/plant-added`,
    received,
    answerWith: (next) => {
      answer = next;
    },
    stop: listening.stop,
  };
};
