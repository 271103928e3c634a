// The "plant added" webhook in the local run: where deliveries go (WEBHOOK_URL and WEBHOOK_SECRET
// from the environment, or a receiver on this machine that verifies and prints each one), where
// dead letters are kept, the retry queue (a local stand-in for SQS, kept under the data folder so
// that a waiting event survives a restart), and the pollers that feed the two functions through
// serverless-offline the way Lambda's event source mappings would.

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SQSClient } from '@aws-sdk/client-sqs';
import { parse } from 'yaml';
import { loadConfig } from '#lib/config/load.ts';
import { webhookSettings } from '#lib/config/webhook.ts';
import { localStreamsClient } from './dynamoClient.ts';
import { repoRoot, runningWebhooksPath } from './paths.ts';
import { type QueuePoller, startQueuePoller } from './queuePoller.ts';
import { type LocalSqs, startLocalSqs } from './sqsServer.ts';
import { type StreamPoller, startStreamPoller } from './streamPoller.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhookReceiver.ts';

/** A local function's invocation URL, as serverless-offline names it (service-stage-function). */
const invocationsOf = (lambdaPort: number, name: string) =>
  `http://127.0.0.1:${lambdaPort}/2015-03-31/functions/plant-store-local-${name}/invocations`;

/** Invokes a local function with `event` and answers its result, or throws its failure. */
const invoker = (url: string) => async (event: unknown) => {
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(event) });
  const text = await response.text();
  if (!response.ok || response.headers.get('x-amz-function-error')) {
    throw new Error(`the function failed: ${text.slice(0, 300)}`);
  }
  return text ? JSON.parse(text) : null;
};

const RETRY_QUEUE = 'plant-store-local-webhook-retries';
const POISON_QUEUE = 'plant-store-local-webhook-poison';

/** A YAML file of the repository, its CloudFormation tags (!GetAtt, ...) left unresolved. */
const yamlOf = (...path: string[]) =>
  parse(readFileSync(join(repoRoot, ...path), 'utf8'), { logLevel: 'error' });

/**
 * The event sources as serverless.yml deploys them: the stream's batches and retries, the retry
 * queue's batches, visibility and redrive (infra/webhooks.yml), so the local run behaves alike.
 */
const deployedEventSources = () => {
  const { functions } = yamlOf('serverless.yml');
  const stream = functions.deliverPlantAdded.events[0].stream;
  const queue = functions.retryPlantAdded.events[0].sqs;
  const retryQueue = yamlOf('infra', 'webhooks.yml').Resources.WebhookRetryQueue.Properties;
  return {
    stream: {
      batchSize: Number(stream.batchSize),
      maximumRetryAttempts: Number(stream.maximumRetryAttempts),
    },
    queue: {
      batchSize: Number(queue.batchSize),
      visibilityTimeoutSeconds: Number(retryQueue.VisibilityTimeout),
      maxReceiveCount: Number(retryQueue.RedrivePolicy.maxReceiveCount),
    },
  };
};

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
  const deadLetterDir = join(dataDir, 'webhook-dead-letters');
  const failureDir = join(dataDir, 'webhook-stream-failures');
  const sources = deployedEventSources();
  const sqs: LocalSqs = await startLocalSqs({
    dir: join(dataDir, 'queues'),
    queues: {
      [RETRY_QUEUE]: {
        visibilityTimeoutSeconds: sources.queue.visibilityTimeoutSeconds,
        redrive: { deadLetterQueue: POISON_QUEUE, maxReceiveCount: sources.queue.maxReceiveCount },
      },
      [POISON_QUEUE]: {},
    },
  });
  let poller: StreamPoller | undefined;
  let retries: QueuePoller | undefined;
  const env = {
    WEBHOOK_URL: url,
    WEBHOOK_SECRET: secret ?? '',
    WEBHOOK_DEAD_LETTER_DIR: deadLetterDir,
    WEBHOOK_RETRY_QUEUE_URL: sqs.queueUrl(RETRY_QUEUE),
    // the SDK then sends every SQS request to the stand-in, without a warning per request
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
  // the secret too: the file sits beside the signing key, readable by this user alone
  writeFileSync(runningWebhooksPath(dataDir), JSON.stringify(env), { mode: 0o600 });
  return {
    env,
    description: receiver
      ? `delivered to the local receiver at ${url}, which verifies and prints each one`
      : `delivered to ${url}`,
    startPoller: ({ dynamodbEndpoint, streamArn, lambdaPort }) => {
      retries = startQueuePoller({
        client: new SQSClient({
          endpoint: sqs.endpoint,
          region: 'us-east-1',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }),
        queueUrl: sqs.queueUrl(RETRY_QUEUE),
        batchSize: sources.queue.batchSize,
        invoke: invoker(invocationsOf(lambdaPort, 'retryPlantAdded')),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      poller = startStreamPoller({
        client: localStreamsClient(dynamodbEndpoint),
        streamArn,
        ...sources.stream,
        accepts: (record) => record.eventName === 'INSERT',
        invoke: invoker(invocationsOf(lambdaPort, 'deliverPlantAdded')),
        onFailure: async (batch) => {
          mkdirSync(failureDir, { recursive: true });
          writeFileSync(
            join(failureDir, `${batch.shardId}-${batch.firstSequenceNumber}.json`),
            JSON.stringify(batch, null, 2),
          );
        },
        checkpointFile: join(dataDir, 'stream-checkpoints.json'),
        log: (line) => process.stderr.write(`${line}\n`),
      });
    },
    stop: async () => {
      rmSync(runningWebhooksPath(dataDir), { force: true });
      await poller?.stop();
      await retries?.stop();
      await sqs.stop();
      await receiver?.stop();
    },
  };
};
