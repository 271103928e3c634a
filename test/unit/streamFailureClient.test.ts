// The stream-failure function's S3 client is bounded as the queues' clients are: against an S3 that
// accepts connections and never answers, its handler gives the notification back as a batch item
// failure within its attempts' timeouts, instead of waiting out the Lambda's 30 s.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { freePort } from '../../infra/local/freePort.ts';
import { lambdaContext } from '../support/events.ts';

let server: Server;
const sockets: Socket[] = [];
const requests: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  // every request is read and never answered: only the client's own timeout ends it
  server = createServer((request) => {
    requests.push(`${request.method} ${request.url}`);
  });
  server.on('connection', (socket) => sockets.push(socket));
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', listening));
  vi.stubEnv('AWS_ENDPOINT_URL_S3', `http://127.0.0.1:${port}`);
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
  vi.stubEnv('STREAM_DEAD_LETTER_QUEUE_URL', 'http://127.0.0.1:9/000000000000/stream-dead-letters');
  vi.stubEnv('LOG_LEVEL', 'SILENT');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  for (const socket of sockets) socket.destroy();
  await new Promise((closed) => server.close(closed));
});

it('gives a notification back when S3 never answers, after its attempts time out', async () => {
  const { handler } = await import('../../handlers/keepFailedStreamRecords.ts');
  const notification = {
    Records: [{ s3: { bucket: { name: 'failures' }, object: { key: 'aws/lambda/batch-1' } } }],
  };
  const event = {
    Records: [{ messageId: 'm-1', body: JSON.stringify(notification), receiptHandle: 'r-1' }],
  } as SQSEvent;
  const answer = await handler(event, lambdaContext());
  expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
  // both attempts reached S3, and each was abandoned by the client (2 s each, not 30 s)
  expect(requests).toEqual([
    'GET /failures/aws/lambda/batch-1?x-id=GetObject',
    'GET /failures/aws/lambda/batch-1?x-id=GetObject',
  ]);
}, 20_000);
