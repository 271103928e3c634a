// The webhooks in the local run: the operator's deliveries (to WEBHOOK_URL, or a local receiver
// that verifies and prints each), the queues as deployed (fauxqs, kept under the data folder), and
// the pollers feeding the functions through serverless-offline as event source mappings would.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamoDBRecord } from 'aws-lambda';
import { loadConfig } from '#lib/config/load.ts';
import { webhookSettings } from '#lib/config/webhook.ts';
import { sendMessages } from '#lib/webhooks/sqsMessages.ts';
import { localStreamsClient } from './dynamoClient.ts';
import { deployedEventSources, invoker } from './eventSources.ts';
import { startQueuePoller } from './queuePoller.ts';
import { type LocalSqs, startLocalSqs } from './sqs.ts';
import { invocationRecordOf } from './streamBatches.ts';
import { startStreamPoller } from './streamPoller.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhookReceiver.ts';

const RETRY_QUEUE = 'plant-store-local-webhook-retries';
const DEAD_LETTER_QUEUE = 'plant-store-local-webhook-dead-letters';
const DELIVERY_QUEUE = 'plant-store-local-endpoint-deliveries';
const SLOW_DELIVERY_QUEUE = 'plant-store-local-endpoint-deliveries-slow';
const DELIVERY_POISON_QUEUE = 'plant-store-local-endpoint-delivery-poison';
const STREAM_DEAD_LETTER_QUEUE = 'plant-store-local-stream-dead-letters';
const STREAM_FAILURE_QUEUE = 'plant-store-local-webhook-stream-failures';

/** The local receiver's secret: made on first start, kept with the local keys. */
const localSecret = (dataDir: string) => {
  const file = join(dataDir, 'keys', 'webhook-secret.txt');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  mkdirSync(join(dataDir, 'keys'), { recursive: true });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
};

export interface LocalWebhooks {
  /** The function's settings, for serverless-offline. */
  env: Record<string, string>;
  description: string;
  /** The queues and what waits in each, read without receiving (fauxqs's inspection page). */
  queuesUrl: string;
  /** Starts reading the table's stream once the function can be invoked. */
  startPoller: (options: {
    dynamodbEndpoint: string;
    streamArn: string;
    lambdaPort: number;
  }) => void;
  stop: () => Promise<void>;
}

export const startLocalWebhooks = async ({
  dataDir,
  say,
}: {
  dataDir: string;
  say: (line: string) => void;
}): Promise<LocalWebhooks> => {
  const { WEBHOOK_URL, WEBHOOK_SECRET } = process.env;
  if (WEBHOOK_URL && !WEBHOOK_SECRET) {
    throw new Error(
      'WEBHOOK_URL needs WEBHOOK_SECRET too (whsec_ secrets separated by spaces): set both, or neither for the local receiver',
    );
  }
  let receiver: WebhookReceiver | undefined;
  let url = WEBHOOK_URL;
  let secret = WEBHOOK_SECRET;
  if (!url) {
    secret = localSecret(dataDir);
    receiver = await startWebhookReceiver({
      secrets: secret,
      onDelivery: ({ webhookId, body, verified }) => {
        const plant = JSON.parse(body) as { id?: unknown; name?: unknown };
        say(
          `webhook: plant ${String(plant.id)} ${JSON.stringify(plant.name)} (webhook-id ${webhookId}): signature ${verified ? 'ok' : 'NOT VALID'}`,
        );
      },
    });
    url = receiver.url;
  }
  const sources = deployedEventSources();
  // each source queue's visibility, and its redrive to the queue beside it, as deployed
  const redriven = (source: typeof sources.queue, deadLetterQueue: string) => ({
    visibilityTimeoutSeconds: source.visibilityTimeoutSeconds,
    redrive: { deadLetterQueue, maxReceiveCount: source.maxReceiveCount },
  });
  const sqs: LocalSqs = await startLocalSqs({
    dir: join(dataDir, 'sqs'),
    queues: {
      [RETRY_QUEUE]: redriven(sources.queue, DEAD_LETTER_QUEUE),
      [DEAD_LETTER_QUEUE]: {},
      [DELIVERY_QUEUE]: redriven(sources.deliveryQueue, DELIVERY_POISON_QUEUE),
      [SLOW_DELIVERY_QUEUE]: redriven(sources.slowDeliveryQueue, DELIVERY_POISON_QUEUE),
      [DELIVERY_POISON_QUEUE]: {},
      [STREAM_DEAD_LETTER_QUEUE]: {},
      [STREAM_FAILURE_QUEUE]: redriven(sources.failureQueue, STREAM_DEAD_LETTER_QUEUE),
    },
  });
  const pollers: { stop: () => Promise<void> }[] = [];
  const env = {
    WEBHOOK_URL: url,
    WEBHOOK_SECRET: secret ?? '',
    WEBHOOK_RETRY_QUEUE_URL: sqs.queueUrl(RETRY_QUEUE),
    WEBHOOK_DEAD_LETTER_QUEUE_URL: sqs.queueUrl(DEAD_LETTER_QUEUE),
    ENDPOINT_DELIVERY_QUEUE_URL: sqs.queueUrl(DELIVERY_QUEUE),
    ENDPOINT_SLOW_DELIVERY_QUEUE_URL: sqs.queueUrl(SLOW_DELIVERY_QUEUE),
    STREAM_DEAD_LETTER_QUEUE_URL: sqs.queueUrl(STREAM_DEAD_LETTER_QUEUE),
    // the SDK then sends every SQS request to the emulator, without a warning per request
    AWS_ENDPOINT_URL_SQS: sqs.endpoint,
  };
  try {
    // the functions' own loader, now: a bad setting (WEBHOOK_RETRY_SCHEDULE=5x) stops npm start
    // naming it, instead of failing each delivery later
    loadConfig({ ...process.env, ...env }, { webhook: webhookSettings });
  } catch (error) {
    await sqs.stop();
    await receiver?.stop();
    throw error;
  }
  return {
    env,
    description: receiver
      ? `delivered to the local receiver at ${url}, which verifies and prints each one`
      : `delivered to ${url}`,
    queuesUrl: `${sqs.endpoint}/_fauxqs/queues`,
    startPoller: ({ dynamodbEndpoint, streamArn, lambdaPort }) => {
      const log = (line: string) => process.stderr.write(`${line}\n`);
      const queuePoller = (queue: string, { batchSize }: typeof sources.queue, name: string) =>
        startQueuePoller({
          client: sqs.client,
          queueUrl: sqs.queueUrl(queue),
          batchSize,
          invoke: invoker(lambdaPort, name),
          log,
        });
      // each stream function reads the stream on its own, as Lambda's event source mappings do
      const streamPoller = (
        name: string,
        settings: typeof sources.stream,
        accepts: (record: DynamoDBRecord) => boolean,
        checkpoints: string,
      ) =>
        startStreamPoller({
          client: localStreamsClient(dynamodbEndpoint),
          streamArn,
          ...settings,
          accepts,
          invoke: invoker(lambdaPort, name),
          // Lambda's on-failure destination, told as Lambda tells it (an invocation record)
          onFailure: (batch) =>
            sendMessages(sqs.client, sqs.queueUrl(STREAM_FAILURE_QUEUE), [
              { body: invocationRecordOf(batch, `plant-store-local-${name}`, streamArn) },
            ]),
          checkpointFile: join(dataDir, checkpoints),
          log,
        });
      pollers.push(
        queuePoller(RETRY_QUEUE, sources.queue, 'retryPlantAdded'),
        queuePoller(DELIVERY_QUEUE, sources.deliveryQueue, 'deliverToEndpoint'),
        queuePoller(SLOW_DELIVERY_QUEUE, sources.slowDeliveryQueue, 'deliverToEndpoint'),
        queuePoller(STREAM_FAILURE_QUEUE, sources.failureQueue, 'keepFailedStreamRecords'),
        streamPoller(
          'deliverPlantAdded',
          sources.stream,
          (record) => record.eventName === 'INSERT',
          'stream-checkpoints.json',
        ),
        streamPoller(
          'queueEndpointEvents',
          sources.endpointStream,
          () => true,
          'endpoint-stream-checkpoints.json',
        ),
      );
    },
    stop: async () => {
      await Promise.all(pollers.map((poller) => poller.stop()));
      await sqs.stop();
      await receiver?.stop();
    },
  };
};
