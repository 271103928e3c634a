// A store call stops when the request's signal aborts (the function about to run out of time), long
// before the client's own request timeout: against a DynamoDB that accepts and never answers.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { freePort } from '../../infra/local/freePort.ts';
import { abortable, createDocumentClient } from '../../lib/dynamo/client.ts';

let server: Server;
const sockets: Socket[] = [];
let client: ReturnType<typeof createDocumentClient>;

beforeAll(async () => {
  const port = await freePort();
  server = createServer(() => {});
  server.on('connection', (socket) => sockets.push(socket));
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', listening));
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
  // one attempt of 10 s: only the abort can end a call within the test
  client = createDocumentClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    maxAttempts: 1,
    connectTimeoutMs: 10_000,
    requestTimeoutMs: 10_000,
  });
});

afterAll(async () => {
  vi.unstubAllEnvs();
  client.destroy();
  for (const socket of sockets) socket.destroy();
  await new Promise((closed) => server.close(closed));
});

const get = (signal: AbortSignal) =>
  client.send(new GetCommand({ TableName: 'plants', Key: { id: 1 } }), abortable(signal));

it('stops every call waiting on the signal when it aborts, with an AbortError', async () => {
  const controller = new AbortController();
  const started = performance.now();
  const calls = [get(controller.signal), get(controller.signal)].map((call) =>
    call.then(
      () => 'answered',
      (error: Error) => error.name,
    ),
  );
  setTimeout(() => controller.abort(), 200);

  expect(await Promise.all(calls)).toEqual(['AbortError', 'AbortError']);
  expect(performance.now() - started).toBeLessThan(2_000);
});

it('does not start a call whose signal has already aborted', async () => {
  const controller = new AbortController();
  controller.abort();
  const connectionsBefore = sockets.length;

  await expect(get(controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  expect(sockets).toHaveLength(connectionsBefore);
});

it('gives the SDK no signal when the call has none', () => {
  expect(abortable(undefined)).toEqual({});
});
