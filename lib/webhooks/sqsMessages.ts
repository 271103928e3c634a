// Every message of the service's queues, whatever a caller stored: SQS takes a body only in XML's
// character set (no U+FFFE, U+FFFF) and at most 1 MiB per message and per SendMessageBatch.
import {
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  SQSClient,
  type SQSClientConfig,
} from '@aws-sdk/client-sqs';
import { NonRetryableError } from '#lib/webhooks/batchResponse.ts';
import { traceCalls } from '#lib/xray.ts';

// calls that give up in time: 2 tries of 1 s to connect and 2 s to answer fail a hung call in about
// 6 s, inside a route's 10 s and a consumer's 30 s (else the timeout fails its whole batch)
export const boundedClientConfig = (region: string) => ({
  region,
  maxAttempts: 2,
  requestHandler: {
    connectionTimeout: 1000,
    requestTimeout: 2000,
    // without it the SDK only logs a warning and keeps waiting on a silent connection
    throwOnRequestTimeout: true,
  },
});

export const sqsClient = (region: string, more: SQSClientConfig = {}) => {
  const client = new SQSClient({ ...boundedClientConfig(region), ...more });
  traceCalls(client);
  return client;
};

/** `value` as JSON that SQS accepts and JSON.parse reads back as `value`, code point for code point. */
export const messageBody = (value: unknown) =>
  JSON.stringify(value).replace(/[\uFFFE\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

export interface OutgoingMessage {
  body: unknown;
  /** SQS delays a message at most 15 minutes (900 seconds). */
  delaySeconds?: number;
  /** Its tenant on a fair queue (MessageGroupId): a receive serves a noisy tenant's messages last. */
  groupId?: string;
}

const MAX_ENTRIES = 10;
const MAX_BATCH_BYTES = 1024 * 1024;

// SQS's refusals of the messages as sent, which no retry mends; any other (AccessDenied, a throttle)
// is thrown as it is, so that its source offers the record or message again
const REFUSED_AS_SENT = new Set([
  'InvalidMessageContents',
  'MessageTooLong',
  'BatchRequestTooLong',
  'InvalidParameterValue',
  'InvalidBatchEntryId',
  'BatchEntryIdsNotDistinct',
  'TooManyEntriesInBatchRequest',
]);
/** The name of an SQS error as the SDK gives it (AWS.SimpleQueueService.X in the query protocol). */
const refusedAsSent = (name = '') =>
  REFUSED_AS_SENT.has(name.replace(/^AWS\.SimpleQueueService\./, ''));

/** Sends in batches of 10 messages and 1 MiB; NonRetryableError when SQS refuses one as sent. */
export const sendMessages = async (
  client: SQSClient,
  queueUrl: string,
  messages: readonly OutgoingMessage[],
) => {
  const batches: SendMessageBatchRequestEntry[][] = [];
  let bytes = 0;
  for (const { body, delaySeconds, groupId } of messages) {
    const MessageBody = messageBody(body);
    const size = Buffer.byteLength(MessageBody);
    let batch = batches.at(-1);
    if (!batch || batch.length === MAX_ENTRIES || bytes + size > MAX_BATCH_BYTES) {
      batch = [];
      batches.push(batch);
      bytes = 0;
    }
    bytes += size;
    const entry = { Id: String(batch.length), MessageBody, DelaySeconds: delaySeconds };
    batch.push(groupId === undefined ? entry : { ...entry, MessageGroupId: groupId });
  }
  for (const Entries of batches) {
    const { Failed = [] } = await client
      .send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries }))
      .catch((error: { name?: string; message?: string }) => {
        throw refusedAsSent(error.name)
          ? new NonRetryableError(`the queue refused the messages: ${error.message}`)
          : error;
      });
    if (Failed.length === 0) continue;
    const reasons = Failed.map(({ Code, Message }) => `${Code}: ${Message}`).join('; ');
    const refusal = `the queue refused ${Failed.length} of ${Entries.length} messages (${reasons})`;
    throw Failed.some(({ SenderFault, Code }) => SenderFault && refusedAsSent(Code))
      ? new NonRetryableError(refusal)
      : new Error(refusal);
  }
};
