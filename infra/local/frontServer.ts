// What listens on PORT in the local run: the API reference at /docs, and every other request
// passed on unchanged to serverless-offline on a port of its own. One origin for the page and the
// API, so that the page's "Try it" needs no CORS.
import { createReadStream } from 'node:fs';
import { createServer, request } from 'node:http';
import { referenceAssets } from '../docs/reference.ts';

export interface FrontServerOptions {
  port: number;
  apiPort: number;
  /** The reference page, for the URL the browser used to reach it (http://host:port). */
  page: (origin: string) => Promise<string>;
}

export const startFrontServer = ({ port, apiPort, page }: FrontServerOptions) => {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const asset = referenceAssets[path.replace(/^\/docs\//, '')];
    if (req.method === 'GET' && path === '/docs') {
      // the page loads its library from beside itself
      res.writeHead(302, { Location: '/docs/' }).end();
    } else if (req.method === 'GET' && path === '/docs/') {
      const html = await page(`http://${req.headers.host}`);
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
      });
      res.end(html);
    } else if (req.method === 'GET' && path.startsWith('/docs/') && asset) {
      res.writeHead(200, { 'Content-Type': asset.type });
      createReadStream(asset.file).pipe(res);
    } else {
      const upstream = request(
        {
          host: '127.0.0.1',
          port: apiPort,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
          answer.pipe(res);
        },
      );
      upstream.once('error', () => {
        if (res.headersSent) return res.destroy();
        res
          .writeHead(503, { 'Content-Type': 'text/plain' })
          .end('The local API is not ready yet.\n');
      });
      req.pipe(upstream);
    }
  });
  return new Promise<{ close: () => Promise<void> }>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () =>
      resolve({
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      }),
    );
  });
};
