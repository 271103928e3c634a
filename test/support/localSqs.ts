// The local SQS (fauxqs, infra/local/sqs.ts) for one test, its database in a folder of its own that
// stop() removes: a retry queue with a 1 s visibility timeout and a redrive (after 2 receives) to
// its dead-letter queue, the real SDK client, and the calls the tests make with it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { freePort } from '../../infra/local/freePort.ts';
import { startLocalSqs } from '../../infra/local/sqs.ts';

const QUEUES = {
  retries: {
    visibilityTimeoutSeconds: 1,
    redrive: { deadLetterQueue: 'dead', maxReceiveCount: 2 },
  },
  dead: {},
};

export const startTestSqs = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'local-sqs-'));
  // the same port after a restart: the queue URLs stay valid, as the local run's do
  const port = await freePort();
  let server = await startLocalSqs({ dir, queues: QUEUES, port });
  const url = server.queueUrl('retries');
  const client = new SQSClient({ region: 'us-east-1', endpoint: server.endpoint });
  return {
    client,
    endpoint: server.endpoint,
    url,
    deadLetterUrl: server.queueUrl('dead'),
    /** `tenant`: its MessageGroupId, as on a fair queue. */
    send: async (body: string, DelaySeconds?: number, tenant?: string) =>
      (
        await client.send(
          new SendMessageCommand({
            QueueUrl: url,
            MessageBody: body,
            DelaySeconds,
            MessageGroupId: tenant,
          }),
        )
      ).MessageId as string,
    /** Up to 10 messages, with every system attribute. */
    receive: async (VisibilityTimeout?: number, QueueUrl = url) =>
      (
        await client.send(
          new ReceiveMessageCommand({
            QueueUrl,
            MaxNumberOfMessages: 10,
            VisibilityTimeout,
            MessageSystemAttributeNames: ['All'],
          }),
        )
      ).Messages ?? [],
    deleteMessage: (ReceiptHandle: string | undefined) =>
      client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle })),
    changeVisibility: (ReceiptHandle: string | undefined, VisibilityTimeout: number) =>
      client.send(
        new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle, VisibilityTimeout }),
      ),
    /** The retry queue's messages: visible, in flight, delayed. */
    counts: async () => {
      const { Attributes = {} } = await client.send(
        new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }),
      );
      return {
        visible: Attributes.ApproximateNumberOfMessages,
        inFlight: Attributes.ApproximateNumberOfMessagesNotVisible,
        delayed: Attributes.ApproximateNumberOfMessagesDelayed,
      };
    },
    /** A new server on the same folder and port. */
    restart: async () => {
      await server.stop();
      server = await startLocalSqs({ dir, queues: QUEUES, port });
    },
    stop: async () => {
      client.destroy();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

export type TestSqs = Awaited<ReturnType<typeof startTestSqs>>;

/**
 * The bodies a queue of the local SQS holds (ready, delayed, in flight), read without receiving
 * them: fauxqs's inspection page.
 */
export const queuedBodies = async (endpoint: string, queue: string): Promise<string[]> => {
  const { messages } = (await (await fetch(`${endpoint}/_fauxqs/queues/${queue}`)).json()) as {
    messages: Record<'ready' | 'delayed', { body: string }[]> & {
      inflight: { message: { body: string } }[];
    };
  };
  const { ready, delayed, inflight } = messages;
  return [...ready, ...delayed, ...inflight.map(({ message }) => message)].map(({ body }) => body);
};
