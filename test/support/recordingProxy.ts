// An HTTP proxy in front of a service that keeps every exchange: for a test that runs a client as
// a user would and then reads what the service told it (an endpoint's secret, shown only once).
// `alter` may change an answer on its way to the client (a service that misbehaves).
import { createServer } from 'node:http';
import { listenLocally } from '../../infra/local/freePort.ts';

export interface Exchange {
  method: string;
  path: string;
  status: number;
  /** The answer's body, as text. */
  body: string;
}

/** Hop-by-hop headers, and those fetch sets for itself. */
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
]);

/** What replaces an answer's status, headers (added to its own) or body. */
export interface Altered {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
}

export const startRecordingProxy = async (
  target: string,
  alter: (exchange: Exchange) => Altered | undefined = () => undefined,
) => {
  const exchanges: Exchange[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const method = request.method ?? 'GET';
    const path = request.url ?? '/';
    const headers = Object.entries(request.headers).flatMap(([name, value]) =>
      NOT_FORWARDED.has(name) || value === undefined
        ? []
        : [[name, String(value)] as [string, string]],
    );
    const body = chunks.length > 0 ? { body: Buffer.concat(chunks) } : {};
    try {
      const answer = await fetch(`${target}${path}`, {
        method,
        headers,
        ...body,
        redirect: 'manual',
      });
      const exchange = { method, path, status: answer.status, body: await answer.text() };
      exchanges.push(exchange);
      const relayed = [...answer.headers].filter(([name]) => !NOT_FORWARDED.has(name));
      const altered = alter(exchange);
      response
        .writeHead(altered?.status ?? exchange.status, {
          ...Object.fromEntries(relayed),
          ...altered?.headers,
        })
        .end(altered?.body ?? exchange.body);
    } catch (error) {
      response
        .writeHead(502)
        .end(`the recording proxy could not reach ${target}: ${String(error)}`);
    }
  });
  const { port, stop } = await listenLocally(server);
  return { url: `http://127.0.0.1:${port}`, exchanges, stop };
};
