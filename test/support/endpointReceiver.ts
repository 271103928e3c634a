// A caller's endpoint's receiver on this machine, for the tests through npm start: it keeps every
// delivery it gets (headers that matter, body as JSON, when) and answers as told (200 unless told),
// at once or later (a slow receiver), or never (one the attempt's timeout gives up on).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenLocally } from '../../infra/local/freePort.ts';

/** What a receiver got: the headers that matter, and the body as JSON. */
export interface Received {
  webhookId: string;
  signatures: string[];
  timestamp: string;
  body: string;
  event: { type: string; timestamp: string; data: Record<string, unknown> };
  headers: IncomingHttpHeaders;
  receivedAt: number;
}

export type Answer = { status: number; headers?: Record<string, string> };

export const startReceiver = async () => {
  const received: Received[] = [];
  let answer: (delivery: Received) => Answer | Promise<Answer> = () => ({ status: 200 });
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', async () => {
      const header = (name: string) => String(request.headers[name] ?? '');
      const delivery = {
        webhookId: header('webhook-id'),
        signatures: header('webhook-signature').split(' '),
        timestamp: header('webhook-timestamp'),
        body,
        event: JSON.parse(body),
        headers: request.headers,
        receivedAt: Date.now(),
      };
      received.push(delivery);
      const { status, headers } = await answer(delivery);
      if (!response.destroyed) response.writeHead(status, headers).end();
    });
  });
  const { port, stop } = await listenLocally(server);
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answerWith: (next: typeof answer) => {
      answer = next;
    },
    stop,
  };
};
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Waits until `receiver` has `count` deliveries (`withinMs`, 20 s unless told), then `settle` ms for any more. */
export const arrivals = async (
  receiver: Receiver,
  count: number,
  settle = 1500,
  withinMs = 20_000,
) => {
  const deadline = Date.now() + withinMs;
  while (receiver.received.length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, settle));
  return receiver.received;
};
