// The plant events of callers' own endpoints, from the table's stream: each insert (plant.added),
// update (plant.updated: every MODIFY is a PUT or PATCH that wrote) and delete (plant.deleted)
// becomes one delivery per endpoint of the plant's owner that is enabled and takes its type, on
// the endpoint-deliveries queue, where each is attempted on its own (deliverToEndpoint.ts). A
// record is handed back (the stream offers it again) only when the endpoints could not be read or
// the queue could not keep the deliveries; an endpoint already given it gets it again with the same
// webhook-id, which its receiver deduplicates.
import { createHash } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { StoredPlant } from '#lib/plants/store.ts';
import { toIdentifiedPlant } from '#lib/plants/views.ts';
import type { Telemetry } from '#lib/telemetry.ts';
import { handingBack } from '#lib/webhooks/attempt.ts';
import { handleEach } from '#lib/webhooks/batchResponse.ts';
import {
  type DeliveryQueue,
  type EndpointDelivery,
  eventBody,
} from '#lib/webhooks/endpointDeliveries.ts';
import type { EndpointStore, EventType } from '#lib/webhooks/endpointStore.ts';

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

export interface EndpointEventsDependencies extends Telemetry {
  endpoints: Pick<EndpointStore, 'list'>;
  queue: DeliveryQueue;
}

export const queueEndpointEventsHandler = ({
  endpoints,
  queue,
  ...telemetry
}: EndpointEventsDependencies) => {
  const handedBack = handingBack(telemetry);
  const queueDeliveries = async (invocation: Context, record: DynamoDBRecord) => {
    const event = plantEventOf(record);
    if (!event) {
      // it can never become one: offered again, it would hold back every record behind it
      telemetry.record(invocation, {
        level: 'ERROR',
        message: 'stream record skipped: it is no change of a plant',
        metric: 'EndpointEventsSkipped',
        fields: { eventId: record.eventID, eventName: record.eventName },
      });
      return;
    }
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
    telemetry.record(invocation, {
      level: 'INFO',
      message: 'endpoint deliveries queued',
      metric: 'EndpointEventsQueued',
      fields: { webhookId: event.webhookId, type: event.type, endpoints: deliveries.length },
    });
  };
  return async ({ Records }: DynamoDBStreamEvent, context: Context) => {
    telemetry.start(context);
    return handleEach(
      Records,
      (record) => queueDeliveries(context, record),
      (record) => record.dynamodb?.SequenceNumber,
      (record, error) => handedBack(context, `stream record ${record.eventID}`, error),
    );
  };
};
