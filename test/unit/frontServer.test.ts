// The front of npm start (infra/local/frontServer.ts) answers for itself only in the API's Error
// shape: a foreign Host, and serverless-offline not answering behind it.
import { request } from 'node:http';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { freePort } from '../../infra/local/freePort.ts';
import { startFrontServer } from '../../infra/local/frontServer.ts';

let port: number;
let front: Awaited<ReturnType<typeof startFrontServer>>;
beforeEach(async () => {
  port = await freePort();
  // nothing listens on the API's port: as if serverless-offline had stopped
  front = await startFrontServer({ port, apiPort: await freePort(), page: async () => '' });
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
