// The front of npm start (infra/local/frontServer.ts) answers for itself only in the API's Error
// shape: a foreign Host, and serverless-offline not answering behind it.
import { createServer, request } from 'node:http';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { freePort } from '../../infra/local/freePort.ts';
import { startFrontServer } from '../../infra/local/frontServer.ts';

let port: number;
let front: Awaited<ReturnType<typeof startFrontServer>>;
beforeEach(async () => {
  port = await freePort();
  // nothing listens on the API's port: as if serverless-offline had stopped
  front = await startFrontServer({
    port,
    apiPort: await freePort(),
    page: async () => '',
    cors: false,
  });
});
afterEach(() => front.close());

/** A POST through node:http, whose Host header fetch would not let a test choose. */
const post = (host: string) =>
  new Promise<{ status: number | undefined; type: string | undefined; body: string }>(
    (resolve, reject) => {
      request({ port, method: 'POST', path: '/plants', headers: { host } }, (answer) => {
        let body = '';
        answer.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        answer.on('end', () =>
          resolve({ status: answer.statusCode, type: answer.headers['content-type'], body }),
        );
      })
        .once('error', reject)
        .end();
    },
  );

it('answers a foreign Host with an Error body naming the address to use', async () => {
  expect(await post(`evil.example:${port}`)).toEqual({
    status: 421,
    type: 'application/json; charset=utf-8',
    body: JSON.stringify({
      error: 421,
      message: `This server answers only as http://127.0.0.1:${port}: use that address.`,
    }),
  });
});

it('answers an API that does not answer with an Error body, not a bare failure', async () => {
  expect(await post(`127.0.0.1:${port}`)).toEqual({
    status: 502,
    type: 'application/json; charset=utf-8',
    body: JSON.stringify({
      error: 502,
      message: 'serverless-offline did not answer: see the terminal of npm start.',
    }),
  });
});

it.each([
  [false, undefined],
  [true, 'https://any.example'],
])(
  "passes serverless-offline's CORS headers on only when the stage answers CORS (%s)",
  async (cors, allowed) => {
    // an API that allows any origin, as serverless-offline does with CORS off
    const api = createServer((_req, res) =>
      res
        .writeHead(200, {
          'Access-Control-Allow-Origin': 'https://any.example',
          'Access-Control-Allow-Credentials': 'true',
          'Content-Type': 'application/json',
        })
        .end('[]'),
    );
    const apiPort = await freePort();
    await new Promise<void>((resolve) => api.listen(apiPort, '127.0.0.1', resolve));
    const frontPort = await freePort();
    const corsFront = await startFrontServer({
      port: frontPort,
      apiPort,
      page: async () => '',
      cors,
    });
    try {
      const answer = await fetch(`http://127.0.0.1:${frontPort}/plants`, {
        headers: { Origin: 'https://any.example' },
      });
      expect(answer.headers.get('access-control-allow-origin') ?? undefined).toBe(allowed);
      expect(answer.headers.has('access-control-allow-credentials')).toBe(cors);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(await answer.json()).toEqual([]);
    } finally {
      await corsFront.close();
      api.close();
    }
  },
);
