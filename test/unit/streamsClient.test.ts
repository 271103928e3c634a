// The stream-failure function's Streams client is bounded as the tables' clients are: against a
// DynamoDB that accepts connections and never answers, its handler gives the message back as a
// batch item failure within its attempts' timeouts, instead of waiting out the Lambda's 30 s.
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
    requests.push(String(request.headers['x-amz-target']));
  });
  server.on('connection', (socket) => sockets.push(socket));
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', listening));
  vi.stubEnv('DYNAMODB_ENDPOINT', `http://127.0.0.1:${port}`);
  vi.stubEnv('DYNAMODB_MAX_ATTEMPTS', '2');
  vi.stubEnv('DYNAMODB_REQUEST_TIMEOUT_MS', '300');
  vi.stubEnv('STREAM_DEAD_LETTER_QUEUE_URL', 'http://127.0.0.1:9/000000000000/stream-dead-letters');
  vi.stubEnv('LOG_LEVEL', 'SILENT');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  for (const socket of sockets) socket.destroy();
  await new Promise((closed) => server.close(closed));
});

it('gives a batch back when the stream never answers, after its attempts time out', async () => {
  const { handler } = await import('../../handlers/keepFailedStreamRecords.ts');
  const batch = {
    requestContext: { functionArn: 'arn:aws:lambda:us-east-1:1:function:f', condition: 'x' },
    timestamp: '2026-11-29T00:00:00.000Z',
    DDBStreamBatchInfo: {
      shardId: 'shardId-1',
      startSequenceNumber: '100',
      endSequenceNumber: '100',
      batchSize: 1,
      streamArn: 'arn:aws:dynamodb:us-east-1:1:table/plants/stream/2026',
    },
  };
  const event = {
    Records: [{ messageId: 'm-1', body: JSON.stringify(batch), receiptHandle: 'r-1' }],
  } as SQSEvent;
  const answer = await handler(event, lambdaContext());
  expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
  // both attempts reached the stream, and each was abandoned by the client
  expect(requests).toEqual([
    'DynamoDBStreams_20120810.GetShardIterator',
    'DynamoDBStreams_20120810.GetShardIterator',
  ]);
}, 20_000);
