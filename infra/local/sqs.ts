// SQS and S3 for `npm start` and the tests: fauxqs on 127.0.0.1 (patches/), its queues in SQLite to
// outlast a restart; URLs name its endpoint (its own need *.localhost), found by their last segment.
import { SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startFauxqs } from 'fauxqs';
import { localClientConfig } from './dynamoClient.ts';

interface QueueSettings {
  /** The visibility timeout of a receive that names none (SQS's default: 30). */
  visibilityTimeoutSeconds?: number;
  /** The redrive policy: a message received more than maxReceiveCount times moves there. */
  redrive?: { deadLetterQueue: string; maxReceiveCount: number } | undefined;
}

export type LocalSqs = Awaited<ReturnType<typeof startLocalSqs>>;

export const startLocalSqs = async ({
  dir,
  queues,
  buckets = [],
  port = 0,
}: {
  /** fauxqs's database: queues, messages and objects kept from an earlier run are served again. */
  dir: string;
  queues: Record<string, QueueSettings>;
  buckets?: string[];
  port?: number;
}) => {
  const server = await startFauxqs({ dataDir: dir, port, logger: false });
  const endpoint = `http://127.0.0.1:${server.port}`;
  // made when missing; one kept from an earlier run keeps its messages
  const setup = { queues: Object.keys(queues).map((name) => ({ name })), buckets };
  const { queues: made } = server.setup(setup);
  const queueOf = (name: string) => {
    const queue = made.find((one) => one.name === name);
    if (!queue) throw new Error(`no local queue is named ${name}`);
    return queue;
  };
  const queueUrl = (name: string) => `${endpoint}${new URL(queueOf(name).url).pathname}`;

  // this run's settings, also on a queue made by an earlier run (serverless.yml may have changed)
  const client = new SQSClient(localClientConfig(endpoint));
  try {
    for (const [name, { visibilityTimeoutSeconds = 30, redrive }] of Object.entries(queues)) {
      const policy = redrive && {
        deadLetterTargetArn: queueOf(redrive.deadLetterQueue).arn,
        maxReceiveCount: redrive.maxReceiveCount,
      };
      const Attributes = {
        VisibilityTimeout: String(visibilityTimeoutSeconds),
        // '' removes a policy an earlier run set
        RedrivePolicy: policy ? JSON.stringify(policy) : '',
      };
      await client.send(new SetQueueAttributesCommand({ QueueUrl: queueUrl(name), Attributes }));
    }
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { endpoint, queueUrl, client, stop: () => server.stop() };
};
