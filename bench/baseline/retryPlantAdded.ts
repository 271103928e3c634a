// The "plant added" webhook's later attempts, bare: each retry queue message parsed, its event
// POSTed again, signed afresh (bench/baseline/webhook.ts); a failure sent back to the queue for the
// next attempt, else reported for the queue to offer again.
import type { SQSRecord } from 'aws-lambda';
import { eachRecord } from './batch.ts';
import { post, send } from './webhook.ts';

const retryQueueUrl = process.env.WEBHOOK_RETRY_QUEUE_URL;

export const handler = eachRecord<SQSRecord>(
  (record) => record.messageId,
  async (record) => {
    const { webhookId, body, attempts } = JSON.parse(record.body);
    await post(webhookId, body).catch((error) =>
      send(retryQueueUrl, { webhookId, body, attempts: attempts + 1, lastError: String(error) }),
    );
  },
);
