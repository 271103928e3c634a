// Every message of the service's queues, whatever a caller stored: SQS takes a body only in XML's
// character set (no U+FFFE, U+FFFF) and at most 1 MiB per message and per SendMessageBatch.
import {
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { NonRetryableError } from '#lib/webhooks/batchResponse.ts';

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
      .catch((error: { $fault?: string; $retryable?: unknown; message?: string }) => {
        // the request refused as sent (a client fault the SDK would not retry)
        throw error.$fault === 'client' && !error.$retryable
          ? new NonRetryableError(`the queue refused the messages: ${error.message}`)
          : error;
      });
    if (Failed.length === 0) continue;
    const reasons = Failed.map(({ Code, Message }) => `${Code}: ${Message}`).join('; ');
    const refusal = `the queue refused ${Failed.length} of ${Entries.length} messages (${reasons})`;
    throw Failed.some(({ SenderFault }) => SenderFault)
      ? new NonRetryableError(refusal)
      : new Error(refusal);
  }
};
