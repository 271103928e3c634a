// The plant events of callers' own endpoints, from the table's stream: each insert (plant.added),
// update (plant.updated: every MODIFY is a PUT or PATCH that wrote) and delete (plant.deleted)
// becomes one delivery per endpoint of the plant's owner that is enabled and takes its type, on
// the endpoint-deliveries queue, where each is attempted on its own (deliverToEndpoint.ts); one
// given again has the same webhook-id, which its receiver deduplicates.
import { createHash } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import {
  type DeliveryQueue,
  type EndpointDelivery,
  eventBody,
} from '#lib/endpointDeliveries/store.ts';
import type { EndpointStore, EventType } from '#lib/endpoints/store.ts';
import type { StoredPlant } from '#lib/plants/store.ts';
import { toIdentifiedPlant } from '#lib/plants/views.ts';
import {
  NonRetryableError,
  type StreamConsumerDependencies,
  streamConsumer,
} from '#lib/webhooks/batchResponse.ts';

const TYPES: Record<string, EventType> = {
  INSERT: 'plant.added',
  MODIFY: 'plant.updated',
  REMOVE: 'plant.deleted',
};

/** The event a stream record is, with its owner; undefined for a record that is no plant's. */
export const plantEventOf = (record: DynamoDBRecord) => {
  const type = TYPES[record.eventName ?? ''];
  const image = type === 'plant.deleted' ? record.dynamodb?.OldImage : record.dynamodb?.NewImage;
  if (!type || !image) return undefined;
  const plant = unmarshall(image as Record<string, AttributeValue>) as StoredPlant;
  const { id, createdAt, createdBy: owner, version = 1 } = plant;
  if (typeof id !== 'number' || typeof owner !== 'string') return undefined;
  // one id per change of one plant: a plant deleted and created again under its id is another
  const digest = createHash('sha256')
    .update(`${type}\n${id}\n${createdAt}\n${version}`)
    .digest('base64url');
  const at = new Date((record.dynamodb?.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000);
  return {
    owner,
    type,
    webhookId: `msg_${digest.slice(0, 32)}`,
    body: eventBody(type, at, type === 'plant.deleted' ? { id } : toIdentifiedPlant(plant)),
  };
};

export interface EndpointEventsDependencies extends StreamConsumerDependencies {
  endpoints: Pick<EndpointStore, 'list'>;
  queue: DeliveryQueue;
}

export const queueEndpointEventsHandler = (dependencies: EndpointEventsDependencies) => {
  const { endpoints, queue, record: note } = dependencies;
  return streamConsumer(dependencies, async (invocation, record) => {
    const event = plantEventOf(record);
    if (!event)
      throw new NonRetryableError(`stream record ${record.eventID} is no change of a plant`);
    const found = await endpoints.list(event.owner);
    if (found.outcome === 'unavailable') throw found.cause;
    const deliveries = found.endpoints
      .filter((endpoint) => !endpoint.disabled && endpoint.events.includes(event.type))
      .map(
        ({ id }): EndpointDelivery => ({
          ...event,
          endpointId: id,
          attempts: 0,
          dueAt: Date.now(),
        }),
      );
    if (deliveries.length === 0) return;
    await queue.send(deliveries);
    note(invocation, {
      level: 'INFO',
      message: 'endpoint deliveries queued',
      metric: 'EndpointEventsQueued',
      fields: { webhookId: event.webhookId, type: event.type, endpoints: deliveries.length },
    });
  });
};
