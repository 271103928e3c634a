// What listens on PORT in the local run: the API reference at /docs, every other request passed on
// to serverless-offline; one origin, so that the page's "Try it" needs no CORS.
import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { ErrorBody } from '#lib/http/errorBody.ts';
import { referenceAssets } from '../docs/reference.ts';
import { listenLocally } from './freePort.ts';

/** An answer's raw headers (name, value, ...) without the CORS ones. */
const withoutCors = (rawHeaders: string[]) =>
  rawHeaders.filter((_, at) => !/^access-control-/i.test(rawHeaders[at - (at % 2)] ?? ''));

/** The front server's own answers are the API's Error bodies, so a client tells them apart by status alone. */
const refuse = (res: ServerResponse, status: number, message: string) => {
  if (res.headersSent) return void res.destroy();
  const body: ErrorBody = { error: status, message };
  res
    .writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    })
    .end(JSON.stringify(body));
};

export interface FrontServerOptions {
  port: number;
  apiPort: number;
  /** The reference page, for the URL the browser used to reach it (http://host:port). */
  page: (origin: string) => Promise<string>;
  /** CORS_ALLOWED_ORIGINS set; else API Gateway adds no Access-Control-* header: those are taken off. */
  cors: boolean;
}

export const startFrontServer = async ({ port, apiPort, page, cors }: FrontServerOptions) => {
  // only this machine's names for it: a page of another site that a DNS record points here
  // (DNS rebinding) must not read the token /docs shows, nor call the API through it
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!hosts.has(req.headers.host ?? '')) {
      const only = `This server answers only as http://127.0.0.1:${port}: use that address.`;
      return refuse(res, 421, only);
    }
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const name = path.replace(/^\/docs\//, '');
    const asset = Object.hasOwn(referenceAssets, name) ? referenceAssets[name] : undefined;
    if (req.method === 'GET' && path === '/docs') {
      // the page loads its library from beside itself
      res.writeHead(302, { Location: '/docs/' }).end();
    } else if (req.method === 'GET' && path === '/docs/') {
      const html = await page(`http://${req.headers.host}`);
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        'Content-Security-Policy': "frame-ancestors 'none'",
        'Referrer-Policy': 'no-referrer',
      });
      res.end(html);
    } else if (req.method === 'GET' && path.startsWith('/docs/') && asset) {
      res.writeHead(200, { 'Content-Type': asset.type });
      createReadStream(asset.file).pipe(res);
    } else {
      const { method, url, headers } = req;
      const target = { host: '127.0.0.1', port: apiPort, method, path: url, headers };
      const upstream = request(target, (answer) => {
        const { statusCode = 502, rawHeaders } = answer;
        res.writeHead(statusCode, cors ? rawHeaders : withoutCors(rawHeaders));
        answer.pipe(res);
      });
      upstream.once('error', () =>
        refuse(res, 502, 'serverless-offline did not answer: see the terminal of npm start.'),
      );
      res.once('close', () => upstream.destroy());
      req.pipe(upstream);
    }
  };
  const server = createServer((req, res) => {
    // a fault here answers 500 and is told, never stopping npm start
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`npm start: /docs failed: ${String(error)}\n`);
      refuse(res, 500, 'The local server failed on this request: see the terminal of npm start.');
    });
  });
  const { stop } = await listenLocally(server, port);
  return { close: stop };
};
