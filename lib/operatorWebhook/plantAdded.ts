// The "plant added" event, made from the stream record of a plant's insert: its body the plant with
// its id (the published `/plant/webhook` body), its owner the tenant of its retries.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { EventToDeliver } from '#lib/operatorWebhook/attempt.ts';
import type { StoredPlant } from '#lib/plants/store.ts';
import { toIdentifiedPlant } from '#lib/plants/views.ts';
import { NonRetryableError } from '#lib/webhooks/batchResponse.ts';
import { eventWebhookId } from '#lib/webhooks/signature.ts';

/** The event of a stream record of a newly stored plant; a NonRetryableError when it is not one. */
export const plantAddedEvent = (record: DynamoDBRecord): EventToDeliver => {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image)
    throw new NonRetryableError(`stream record ${record.eventID} is not the insert of a plant`);
  // the store wrote it from a validated plant: only what the event is made of is checked
  const plant = unmarshall(image as Record<string, AttributeValue>) as StoredPlant;
  const { id, createdAt, createdBy, traceId } = plant;
  if (typeof id !== 'number' || typeof createdAt !== 'string')
    throw new NonRetryableError(`stream record ${record.eventID} does not hold a plant`);
  return {
    webhookId: eventWebhookId('plant-added', id, createdAt),
    plantId: id,
    owner: typeof createdBy === 'string' ? createdBy : undefined,
    body: JSON.stringify(toIdentifiedPlant(plant)),
    requestTraceId: traceId,
  };
};
