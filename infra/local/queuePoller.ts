// An SQS queue read as Lambda's event source mapping reads it (ReportBatchItemFailures on): batch
// item failures come back, the others are deleted; a function error or an answer naming no message
// of the batch fails all.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

export interface QueuePollerOptions {
  client: SQSClient;
  queueUrl: string;
  /** 1 to 10: one ReceiveMessage's worth (Lambda batches more only over a batching window). */
  batchSize: number;
  /** Invokes the function; throws when it fails (a function error). */
  invoke: (event: SQSEvent) => Promise<unknown>;
  pollIntervalMs?: number;
  log?: (line: string) => void;
}

export type QueuePoller = ReturnType<typeof startQueuePoller>;

/** A received message as Lambda hands it to the function. */
const asLambdaRecord = (message: Message, eventSourceARN: string): SQSRecord =>
  ({
    messageId: message.MessageId,
    receiptHandle: message.ReceiptHandle,
    body: message.Body,
    attributes: message.Attributes ?? {},
    messageAttributes: {},
    md5OfBody: message.MD5OfBody,
    eventSource: 'aws:sqs',
    eventSourceARN,
    awsRegion: 'us-east-1',
  }) as SQSRecord;

/** The ids the answer reports failed: none without batchItemFailures, all of the batch when Lambda
 * could not read it (or it names no message of the batch). */
const failedIds = (answer: unknown, ids: string[]): Set<string> => {
  const failures = (answer as SQSBatchResponse | null)?.batchItemFailures;
  if (failures === undefined || failures === null) return new Set();
  const listed = Array.isArray(failures) ? failures.map((failure) => failure?.itemIdentifier) : [];
  const known = Array.isArray(failures) && listed.every((id) => ids.some((own) => own === id));
  return new Set(known ? ids.filter((id) => listed.includes(id)) : ids);
};

export const startQueuePoller = (options: QueuePollerOptions) => {
  const { client, queueUrl, batchSize, invoke, pollIntervalMs = 100, log = () => {} } = options;
  if (!(Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= 10))
    throw new RangeError(`batchSize must be a whole number from 1 to 10, got ${batchSize}`);
  // the queue's ARN from its URL (https://host/<account>/<name>)
  const [account, name] = new URL(queueUrl).pathname.split('/').slice(-2);
  const eventSourceARN = `arn:aws:sqs:us-east-1:${account}:${name}`;
  const handleBatch = async (messages: Message[]) => {
    const batch = messages.map((message) => asLambdaRecord(message, eventSourceARN));
    const ids = batch.map((record) => record.messageId);
    let failed: Set<string>;
    try {
      failed = failedIds(await invoke({ Records: batch }), ids);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      log(`queue: the function failed on ${batch.length} messages (${reason}); they come back`);
      return;
    }
    if (failed.size > 0)
      log(`queue: ${failed.size} of ${batch.length} messages failed; they come back`);
    const done = batch.filter((record) => !failed.has(record.messageId));
    for (const { receiptHandle: ReceiptHandle } of done)
      await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle }));
  };

  return pollUntilStopped('queue', log, pollIntervalMs, async () => {
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: batchSize,
        MessageSystemAttributeNames: ['All'],
      }),
    );
    if (Messages.length > 0) await handleBatch(Messages);
    return Messages.length > 0;
  });
};

/** `pollOnce` from the next tick until stopped: again at once after a poll that read, `idleMs`
 * later after one that read nothing or failed (told; then `onError`): what it left comes back. */
export const pollUntilStopped = (
  source: string,
  log: (line: string) => void,
  idleMs: number,
  pollOnce: () => Promise<boolean>,
  onError = () => {},
) => {
  let stopping = false;
  let idlePolls = 0;
  const loop = Promise.resolve().then(async () => {
    while (!stopping) {
      try {
        if (await pollOnce()) continue;
      } catch (error) {
        if (stopping) break;
        log(`${source}: ${error instanceof Error ? error.message : String(error)}; retrying`);
        onError();
      }
      idlePolls += 1;
      await sleep(idleMs);
    }
  });
  return {
    stopping: () => stopping,
    idlePolls: () => idlePolls,
    stop: async () => {
      stopping = true;
      await loop;
    },
  };
};
