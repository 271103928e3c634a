// The "plant added" webhook's later attempts, bare: each retry queue message parsed, its event
// POSTed again, signed afresh (bench/baseline/webhook.ts); a failure sent back to the queue for the
// next attempt, else reported for the queue to offer again.
import type { SQSEvent } from 'aws-lambda';
import { post, send } from './webhook.ts';

const retryQueueUrl = process.env.WEBHOOK_RETRY_QUEUE_URL;

export const handler = async (event: SQSEvent) => {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      try {
        const { webhookId, body, attempts } = JSON.parse(record.body);
        try {
          await post(webhookId, body);
        } catch (error) {
          await send(retryQueueUrl, {
            webhookId,
            body,
            attempts: attempts + 1,
            lastError: String(error),
          });
        }
      } catch {
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures };
};
