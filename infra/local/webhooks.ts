// The webhooks in the local run: the operator's receiver (WEBHOOK_URL, or one that prints each), the
// queues as infra/ deploys them, and each function's event sources as serverless.yml declares them.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBRecord } from 'aws-lambda';
import { loadConfig } from '#lib/config/load.ts';
import { webhookSettings } from '#lib/config/webhook.ts';
import { lambdaInvoker } from '../webhooks/redrive.ts';
import { localClientConfig, localStreamsClient } from './dynamoClient.ts';
import { declaredFunctions, declaredQueues, declaredWebhookResources, yamlOf } from './paths.ts';
import { startQueuePoller } from './queuePoller.ts';
import { startLocalSqs } from './sqs.ts';
import { streamFailureBucket } from './streamFailureBucket.ts';
import { type StreamPollerOptions, startStreamPoller } from './streamPoller.ts';
import { startWebhookReceiver } from './webhookReceiver.ts';

/** Each queue of infra/'s templates by logical id: its local name's end, as earlier runs kept it. */
const QUEUES: Record<string, string> = {
  WebhookRetryQueue: 'webhook-retries',
  WebhookDeadLetterQueue: 'webhook-dead-letters',
  EndpointDeliveryQueue: 'endpoint-deliveries',
  EndpointSlowDeliveryQueue: 'endpoint-deliveries-slow',
  EndpointDeliveryPoisonQueue: 'endpoint-delivery-poison',
  StreamDeadLetterQueue: 'stream-dead-letters',
  WebhookStreamFailureQueue: 'webhook-stream-failures',
};

/** The stream functions' on-failure destination (infra/webhooks.yml) and the queue it notifies. */
const [bucketId = '', bucket] =
  Object.entries(declaredWebhookResources()).find(([, { Type }]) => Type === 'AWS::S3::Bucket') ??
  [];
export const BUCKET = `plant-store-local-${bucketId.toLowerCase()}`;
const notifiedQueueId = bucket?.Properties.NotificationConfiguration.QueueConfigurations[0].Queue;

/** Each stream function's checkpoints in the data folder, as earlier runs kept them. */
const CHECKPOINTS: Record<string, string> = {
  deliverPlantAdded: 'stream-checkpoints.json',
  queueEndpointEvents: 'endpoint-stream-checkpoints.json',
};

/** An event source as serverless.yml declares it; an ARN is `Id.Arn` (its !GetAtt tag left off). */
type SourceEvent = {
  sqs?: { arn: string; batchSize: number };
  stream?: Pick<StreamPollerOptions, 'batchSize' | 'bisectBatchOnFunctionError'> & {
    maximumRetryAttempts: unknown;
    filterPatterns?: Record<string, unknown[]>[];
  };
};

const idOf = (arn: string) => arn.split('.')[0] ?? arn;

/** The local receiver's secret: made on first start, kept with the local keys. */
const localSecret = (dataDir: string) => {
  const file = join(dataDir, 'keys', 'webhook-secret.txt');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  mkdirSync(join(dataDir, 'keys'), { recursive: true });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
};

/** The operator's receiver, the queues, and (startPoller) every function's event sources. */
export const startLocalWebhooks = async (dataDir: string, say: (line: string) => void) => {
  const { WEBHOOK_URL, WEBHOOK_SECRET } = process.env;
  if (WEBHOOK_URL && !WEBHOOK_SECRET)
    throw new Error(
      'WEBHOOK_URL needs WEBHOOK_SECRET too (whsec_ secrets separated by spaces): set both, or neither for the local receiver',
    );
  const secret = WEBHOOK_URL ? WEBHOOK_SECRET : localSecret(dataDir);
  const receiver = WEBHOOK_URL
    ? undefined
    : await startWebhookReceiver({
        secrets: secret ?? '',
        onDelivery: ({ webhookId, body, verified }, response) => {
          const plant = JSON.parse(body) as { id?: unknown; name?: unknown };
          say(
            `webhook: plant ${String(plant.id)} ${JSON.stringify(plant.name)} (webhook-id ${webhookId}): signature ${verified ? 'ok' : 'NOT VALID'}`,
          );
          response.writeHead(verified ? 200 : 401).end();
        },
      });
  const url = receiver?.url ?? WEBHOOK_URL ?? '';
  const nameOf = (id: string) => {
    const name = QUEUES[id];
    if (!name) throw new Error(`infra/local/webhooks.ts names no local queue for ${id}`);
    return `plant-store-local-${name}`;
  };
  // each queue's visibility, and its redrive to its dead-letter queue, as deployed
  const queues = declaredQueues().map(([id, { Properties }]) => {
    const { VisibilityTimeout, RedrivePolicy: redrive } = Properties;
    const deadLetterQueue = redrive && nameOf(idOf(redrive.deadLetterTargetArn));
    const redriven = redrive && { deadLetterQueue, maxReceiveCount: redrive.maxReceiveCount };
    return [nameOf(id), { visibilityTimeoutSeconds: VisibilityTimeout, redrive: redriven }];
  });
  const sqs = await startLocalSqs({
    dir: join(dataDir, 'sqs'),
    queues: Object.fromEntries(queues),
    buckets: [BUCKET],
  });
  const queueUrl = (id: string) => sqs.queueUrl(nameOf(id));
  // the setting each queue fills: custom.environment's ${param:<name>} whose param is !Ref <queue>
  const { params, custom } = yamlOf('serverless.yml');
  const queueSettings = Object.entries<string>(custom.environment).flatMap(([setting, source]) => {
    const id = params.default[/^\$\{param:(\w+)\}$/.exec(String(source))?.[1] ?? ''];
    return id in QUEUES ? [[setting, queueUrl(id)]] : [];
  });
  const env = {
    WEBHOOK_URL: url,
    WEBHOOK_SECRET: secret ?? '',
    ...Object.fromEntries(queueSettings),
    // the SDK then sends every SQS and S3 request to the emulator, without a warning per request
    AWS_ENDPOINT_URL_SQS: sqs.endpoint,
    AWS_ENDPOINT_URL_S3: sqs.endpoint,
  };
  const pollers: { stop: () => Promise<void> }[] = [];
  const stop = async () => {
    await Promise.all(pollers.map((poller) => poller.stop()));
    await sqs.stop();
    await receiver?.stop();
  };
  try {
    // the functions' own loader, now: a bad setting (WEBHOOK_RETRY_SCHEDULE=5x) stops npm start
    // naming it, instead of failing each delivery later
    loadConfig({ ...process.env, ...env }, { webhook: webhookSettings });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    stop,
    /** The functions' settings, for serverless-offline. */
    env,
    description: receiver
      ? `delivered to the local receiver at ${url}, which verifies and prints each one`
      : `delivered to ${url}`,
    /** The queues and what waits in each, read without receiving (fauxqs's inspection page). */
    queuesUrl: `${sqs.endpoint}/_fauxqs/queues`,
    /** Starts reading the table's stream and the queues once the functions can be invoked. */
    startPoller: (dynamodbEndpoint: string, streamArn: string, lambdaPort: number) => {
      const log = (line: string) => process.stderr.write(`${line}\n`);
      // a number written once under custom, as ${self:custom.name}
      const numberOf = (value: unknown) =>
        Number(String(value).replace(/^\$\{self:custom\.(\w+)\}$/, (_, name) => custom[name]));
      const functions: Record<string, { events?: SourceEvent[] }> = declaredFunctions();
      // serverless-offline's Lambda API, tried once: a retried invocation would be handled twice
      const lambda = { ...localClientConfig(`http://127.0.0.1:${lambdaPort}`), maxAttempts: 1 };
      const invokeLocal = lambdaInvoker(new LambdaClient(lambda));
      const s3 = new S3Client(localClientConfig(sqs.endpoint));
      // Lambda's S3 on-failure destination, and S3's notification to its queue
      const onFailure = streamFailureBucket(
        s3,
        sqs.client,
        BUCKET,
        queueUrl(idOf(notifiedQueueId)),
      );
      for (const [name, { events = [] }] of Object.entries(functions)) {
        const invoke = (event: unknown) => invokeLocal(`plant-store-local-${name}`, event);
        for (const { sqs: queue, stream } of events) {
          if (queue) {
            const source = { queueUrl: queueUrl(idOf(queue.arn)), batchSize: queue.batchSize };
            pollers.push(startQueuePoller({ client: sqs.client, ...source, invoke, log }));
          }
          if (!stream) continue;
          const { filterPatterns = [{}] } = stream;
          // each stream function reads the stream on its own, as Lambda's event source mappings do
          pollers.push(
            startStreamPoller({
              ...stream,
              client: localStreamsClient(dynamodbEndpoint),
              streamArn,
              maximumRetryAttempts: numberOf(stream.maximumRetryAttempts),
              // its filter patterns on the record's own fields (eventName: [INSERT])
              accepts: (record) =>
                filterPatterns.some((pattern) =>
                  Object.entries(pattern).every(([field, values]) =>
                    values.includes(record[field as keyof DynamoDBRecord]),
                  ),
                ),
              invoke,
              onFailure: onFailure(`plant-store-local-${name}`),
              checkpointFile: join(dataDir, CHECKPOINTS[name] ?? `${name}-stream-checkpoints.json`),
              log,
            }),
          );
        }
      }
    },
  };
};
