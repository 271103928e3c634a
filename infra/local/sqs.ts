// SQS for `npm start` and the tests: fauxqs on 127.0.0.1 (patches/), its queues in SQLite to outlast
// a restart; URLs name its endpoint (its own need *.localhost), found by their last segment.
import { SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startFauxqs } from 'fauxqs';
import { localClientConfig } from './dynamoClient.ts';

export interface QueueSettings {
  /** The visibility timeout of a receive that names none (SQS's default: 30). */
  visibilityTimeoutSeconds?: number;
  /** The redrive policy: a message received more than maxReceiveCount times moves there. */
  redrive?: { deadLetterQueue: string; maxReceiveCount: number };
}

export interface LocalSqs {
  /** http://127.0.0.1:<port>, for a client's endpoint setting (AWS_ENDPOINT_URL_SQS). */
  endpoint: string;
  queueUrl: (name: string) => string;
  client: SQSClient;
  stop: () => Promise<void>;
}

export const startLocalSqs = async ({
  dir,
  queues,
  port = 0,
}: {
  /** fauxqs's database: queues and messages kept from an earlier run on it are served again. */
  dir: string;
  queues: Record<string, QueueSettings>;
  port?: number;
}): Promise<LocalSqs> => {
  const server = await startFauxqs({ dataDir: dir, port, logger: false });
  const endpoint = `http://127.0.0.1:${server.port}`;
  // made when missing; one kept from an earlier run keeps its messages
  const made = new Map(
    server
      .setup({ queues: Object.keys(queues).map((name) => ({ name })) })
      .queues.map((queue) => [queue.name, queue]),
  );
  const queueOf = (name: string) => {
    const queue = made.get(name);
    if (!queue) throw new Error(`no local queue is named ${name}`);
    return queue;
  };
  const queueUrl = (name: string) => `${endpoint}${new URL(queueOf(name).url).pathname}`;

  // this run's settings, also on a queue made by an earlier run (serverless.yml may have changed)
  const client = new SQSClient(localClientConfig(endpoint));
  try {
    for (const [name, { visibilityTimeoutSeconds = 30, redrive }] of Object.entries(queues)) {
      await client.send(
        new SetQueueAttributesCommand({
          QueueUrl: queueUrl(name),
          Attributes: {
            VisibilityTimeout: String(visibilityTimeoutSeconds),
            // '' removes a policy an earlier run set
            RedrivePolicy: redrive
              ? JSON.stringify({
                  deadLetterTargetArn: queueOf(redrive.deadLetterQueue).arn,
                  maxReceiveCount: redrive.maxReceiveCount,
                })
              : '',
          },
        }),
      );
    }
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { endpoint, queueUrl, client, stop: () => server.stop() };
};
