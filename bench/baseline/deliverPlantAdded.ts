// The "plant added" webhook's first attempt, bare: each insert's new image unmarshalled, its body
// and id made, one signed POST (bench/baseline/webhook.ts); a failure sent to the retry queue, else
// reported for the stream to offer again.
import { createHash } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { eachRecord } from './batch.ts';
import { post, send } from './webhook.ts';

const retryQueueUrl = process.env.WEBHOOK_RETRY_QUEUE_URL;

export const handler = eachRecord<DynamoDBRecord>(
  (record) => record.dynamodb?.SequenceNumber,
  async (record) => {
    const item = unmarshall((record.dynamodb?.NewImage ?? {}) as Record<string, AttributeValue>);
    const body = JSON.stringify(
      item.tag === undefined
        ? { id: item.id, name: item.name }
        : { id: item.id, name: item.name, tag: item.tag },
    );
    const id = `msg_${createHash('sha256').update(`${item.id}\n${item.createdAt}`).digest('base64url').slice(0, 32)}`;
    await post(id, body).catch((error) =>
      send(retryQueueUrl, { webhookId: id, body, attempts: 1, lastError: String(error) }),
    );
  },
);
