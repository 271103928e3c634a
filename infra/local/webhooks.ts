// The "plant added" webhook in the local run: where deliveries go (WEBHOOK_URL and WEBHOOK_SECRET
// from the environment, or a receiver on this machine that verifies and prints each one), where
// dead letters are kept, and the stream poller that feeds the function through serverless-offline
// the way Lambda's event source mapping would (settings as serverless.yml gives them).

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { localStreamsClient } from './dynamoClient.ts';
import { type StreamPoller, startStreamPoller } from './streamPoller.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhookReceiver.ts';

/** The local function, as serverless-offline names it (service-stage-function). */
const FUNCTION_NAME = 'plant-store-local-deliverPlantAdded';

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
  let poller: StreamPoller | undefined;
  return {
    env: {
      WEBHOOK_URL: url,
      WEBHOOK_SECRET: secret ?? '',
      WEBHOOK_DEAD_LETTER_DIR: deadLetterDir,
    },
    description: receiver
      ? `delivered to the local receiver at ${url}, which verifies and prints each one`
      : `delivered to ${url}`,
    startPoller: ({ dynamodbEndpoint, streamArn, lambdaPort }) => {
      const invocations = `http://127.0.0.1:${lambdaPort}/2015-03-31/functions/${FUNCTION_NAME}/invocations`;
      poller = startStreamPoller({
        client: localStreamsClient(dynamodbEndpoint),
        streamArn,
        // as serverless.yml's stream event says
        batchSize: 10,
        maximumRetryAttempts: 5,
        bisectBatchOnFunctionError: true,
        accepts: (record) => record.eventName === 'INSERT',
        invoke: async (event: DynamoDBStreamEvent) => {
          const response = await fetch(invocations, {
            method: 'POST',
            body: JSON.stringify(event),
          });
          const text = await response.text();
          if (!response.ok || response.headers.get('x-amz-function-error')) {
            throw new Error(`the function failed: ${text.slice(0, 300)}`);
          }
          return text ? JSON.parse(text) : null;
        },
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
      await poller?.stop();
      await receiver?.stop();
    },
  };
};
