// The events of callers' own endpoints, bare: each stream record's images unmarshalled and its
// events made by the event types' table (type, id, body), the owner's endpoints read (one Query),
// and a delivery to each that is enabled and takes the type sent to the endpoint-deliveries queue
// (SendMessageBatch within SQS's limits, bench/baseline/deliveries.ts); a record whose endpoints or
// queue failed is reported for the stream to offer again.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { callerPartition, ENDPOINT_PREFIX } from '#lib/endpoints/keys.ts';
import { EVENT_TYPES, EVENTS } from '#lib/plants/eventTypes.ts';
import type { StoredPlant } from '#lib/plants/store.ts';
import { eventWebhookId } from '#lib/webhooks/signature.ts';
import { eachRecord } from './batch.ts';
import { sendDeliveries } from './deliveries.ts';
import { client, webhooksTable } from './store.ts';

const plantOf = (image: Record<string, unknown> | undefined) =>
  image && (unmarshall(image as Record<string, AttributeValue>) as StoredPlant);

export const handler = eachRecord<DynamoDBRecord>(
  ({ dynamodb }) => dynamodb?.SequenceNumber,
  async ({ eventName, dynamodb: change }) => {
    const images = {
      name: eventName,
      before: plantOf(change?.OldImage),
      after: plantOf(change?.NewImage),
    };
    const at = new Date((change?.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000);
    const events = EVENT_TYPES.flatMap((type) => {
      const plant = EVENTS[type].of(images);
      if (!plant) return [];
      const { id, createdAt, createdBy: owner, version = 1 } = plant;
      const data = EVENTS[type].data(plant, images);
      const body = JSON.stringify({ type, timestamp: at.toISOString(), data });
      return [{ owner, type, webhookId: eventWebhookId(type, id, createdAt, version), body }];
    });
    const owner = events[0]?.owner;
    if (owner === undefined) return;
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: webhooksTable,
        KeyConditionExpression: 'pk = :caller AND begins_with(sk, :endpoint)',
        ExpressionAttributeValues: {
          ':caller': callerPartition(owner),
          ':endpoint': ENDPOINT_PREFIX,
        },
        ConsistentRead: true,
      }),
    );
    const endpoints = Items as { sk: string; disabled?: boolean; events: string[] }[];
    const deliveries = events.flatMap((delivered) =>
      endpoints
        .filter((endpoint) => !endpoint.disabled && endpoint.events.includes(delivered.type))
        .map(({ sk }) => ({
          ...delivered,
          endpointId: sk.slice(ENDPOINT_PREFIX.length),
          attempts: 0,
          dueAt: Date.now(),
        })),
    );
    if (deliveries.length > 0) await sendDeliveries(deliveries);
  },
);
