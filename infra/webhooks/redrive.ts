// Dead letters offered again: an event POSTed as it was (signed anew), a stream record to the
// function that set it aside. One taken is removed; one that fails again stays.

import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { DynamoDBStreamEvent, SQSBatchResponse } from 'aws-lambda';
import type { StreamDeadLetter } from '#lib/webhooks/batchResponse.ts';
import type { DeadLetter } from '#lib/webhooks/deadLetters.ts';
import { type DeliveryTarget, deliverOnce, describeOutcome } from '#lib/webhooks/delivery.ts';
import type { S3Notification } from '#lib/webhooks/streamFailures.ts';

interface Letter {
  /** Where it is kept (a message id), for the report. */
  source: string;
  /** Its JSON text: a dead letter, or (in a queue anyone may send to) anything. */
  text: string;
  remove: () => Promise<void>;
}

/** An SQS queue's letters, each once per run; those not removed shown again at its end. */
export async function* queueLetters(client: SQSClient, queueUrl: string): AsyncGenerator<Letter> {
  const seen = new Set<string | undefined>();
  const kept = new Set<string | undefined>();
  try {
    for (;;) {
      const { Messages = [] } = await client.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
          // long enough to offer the ten
          VisibilityTimeout: 120,
        }),
      );
      for (const { ReceiptHandle } of Messages) kept.add(ReceiptHandle);
      const fresh = Messages.filter(({ MessageId }) => !seen.has(MessageId));
      if (fresh.length === 0) return;
      for (const { MessageId, ReceiptHandle, Body } of fresh) {
        seen.add(MessageId);
        yield {
          source: `message ${MessageId}`,
          text: Body ?? '',
          remove: async () => {
            await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle }));
            kept.delete(ReceiptHandle);
          },
        };
      }
    }
  } finally {
    for (const ReceiptHandle of kept) {
      const shown = { QueueUrl: queueUrl, ReceiptHandle, VisibilityTimeout: 0 };
      // a handle its message was received with again: that receipt shows it
      await client.send(new ChangeMessageVisibilityCommand(shown)).catch(() => {});
    }
  }
}

/** Offers each letter: `offer` answers what took it (removed) or throws why not (kept). */
const offerEach = async (
  letters: AsyncIterable<Letter>,
  offer: (letter: Record<string, unknown>) => Promise<string>,
  progress: (line: string) => void,
) => {
  const report = { delivered: 0, failed: 0 };
  for await (const { source, text, remove } of letters) {
    let taken: string;
    try {
      // a text that is no JSON fails here, and null is an object without fields
      taken = await offer(Object(JSON.parse(text)));
    } catch (error) {
      report.failed += 1;
      progress(`failed ${source}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    await remove();
    report.delivered += 1;
    progress(`${taken} (${source})`);
  }
  return report;
};

/** The webhook's dead letters, each delivered to the receiver. */
export const redrive = (
  letters: AsyncIterable<Letter>,
  target: DeliveryTarget,
  progress: (line: string) => void = () => {},
) =>
  offerEach(
    letters,
    async ({ webhookId, plantId, body }: Partial<DeadLetter>) => {
      if (typeof webhookId !== 'string' || typeof body !== 'string')
        throw new Error('not a dead letter (no webhookId and body)');
      const outcome = await deliverOnce(target, { webhookId, body });
      if (outcome.outcome !== 'delivered')
        throw new Error(`${webhookId} (plant ${plantId}): ${describeOutcome(outcome)}`);
      return `delivered ${webhookId} (plant ${plantId})`;
    },
    progress,
  );

/** Invokes a function by name with an event; answers its response, or throws its failure. */
export type Invoke = (functionName: string, event: DynamoDBStreamEvent) => Promise<unknown>;

/** Invoke through Lambda's API: a stage's, or serverless-offline's (npm start). */
export const lambdaInvoker =
  (lambda: LambdaClient) =>
  async (FunctionName: string, event: unknown): Promise<unknown> => {
    const Payload = JSON.stringify(event);
    const answer = await lambda.send(new InvokeCommand({ FunctionName, Payload }));
    const text = Buffer.from(answer.Payload ?? []).toString();
    if (answer.FunctionError) throw new Error(`the function failed: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };

/** Stream records, each its own batch to its function; one set aside again is not offered again. */
export const redriveStreamRecords = (
  letters: AsyncIterable<Letter>,
  invoke: Invoke,
  progress: (line: string) => void = () => {},
) => {
  const offered = new Set<string | undefined>();
  return offerEach(
    letters,
    async (letter: Partial<StreamDeadLetter> & S3Notification) => {
      const { functionName, record, reason, Records: [notified] = [] } = letter;
      // S3's notification of a batch given up that keepFailedStreamRecords failed on five times
      if (notified?.s3)
        throw new Error(
          `a batch given up, kept in ${notified.s3.bucket.name} as ${notified.s3.object.key}, that keepFailedStreamRecords could not read: mend it, then send this message again to the webhook-stream-failures queue within 14 days of the failure, while the bucket keeps it (docs/operations.md, Alarms)`,
        );
      if (typeof functionName !== 'string' || !record)
        throw new Error('not a stream dead letter (no functionName and record)');
      if (offered.has(record.eventID))
        throw new Error(
          `${functionName} set stream record ${record.eventID} aside again: ${reason}`,
        );
      offered.add(record.eventID);
      const answer = (await invoke(functionName, { Records: [record] })) as SQSBatchResponse | null;
      if (answer?.batchItemFailures?.length)
        throw new Error(`${functionName} handed the record back again`);
      return `${functionName} took stream record ${record.eventID}`;
    },
    progress,
  );
};
