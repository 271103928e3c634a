// The "plant added" webhook's first attempt, bare: each insert's new image unmarshalled, its body
// and id made, one signed POST (bench/baseline/webhook.ts); a failure sent to the retry queue, else
// reported for the stream to offer again.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { StoredPlant } from '#lib/plants/store.ts';
import { toIdentifiedPlant } from '#lib/plants/views.ts';
import { eventWebhookId } from '#lib/webhooks/signature.ts';
import { eachRecord } from './batch.ts';
import { post, send } from './webhook.ts';

const retryQueueUrl = process.env.WEBHOOK_RETRY_QUEUE_URL;

export const handler = eachRecord<DynamoDBRecord>(
  (record) => record.dynamodb?.SequenceNumber,
  async (record) => {
    const item = unmarshall((record.dynamodb?.NewImage ?? {}) as Record<string, AttributeValue>);
    // the production's own id and view: bare functions, so the floor sends what the webhook sends
    const body = JSON.stringify(toIdentifiedPlant(item as StoredPlant));
    const id = eventWebhookId('plant-added', item.id, item.createdAt);
    await post(id, body).catch((error) =>
      send(retryQueueUrl, { webhookId: id, body, attempts: 1, lastError: String(error) }),
    );
  },
);
