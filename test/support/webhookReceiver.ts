// The tests' webhook receiver: npm start's (infra/local/webhookReceiver.ts), each delivery kept and
// answered as the test sets (200 by default; 401 when its signature does not verify).
import {
  type Delivery,
  startWebhookReceiver as startReceiver,
} from '../../infra/local/webhookReceiver.ts';

export interface ReceivedWebhook extends Delivery {
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
  answerWith: (answer: (delivery: Delivery) => Answer) => void;
  stop: () => Promise<void>;
}

export const startWebhookReceiver = async ({
  secrets,
  port,
}: {
  /** whsec_ secrets separated by spaces: a signature of any of them verifies. */
  secrets: string;
  port?: number;
}): Promise<WebhookReceiver> => {
  const received: ReceivedWebhook[] = [];
  let answer: Parameters<WebhookReceiver['answerWith']>[0] = () => 200;
  const { url, stop } = await startReceiver({
    secrets,
    port,
    onDelivery: (delivery, response) => {
      const given = delivery.verified ? answer(delivery) : 401;
      const status = typeof given === 'object' ? given.status : given;
      received.push({ ...delivery, answered: status, receivedAt: Date.now() });
      if (typeof given === 'object') response.writeHead(given.status, given.headers).end();
      else if (given !== 'hang') response.writeHead(given).end();
    },
  });
  return {
    url,
    received,
    answerWith: (next) => {
      answer = next;
    },
    stop,
  };
};
