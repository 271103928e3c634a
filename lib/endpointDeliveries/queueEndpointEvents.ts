// The plant events for callers' endpoints, from the table's stream: each event a record fires
// (lib/plants/eventTypes.ts) is one delivery per enabled endpoint of the owner taking its type, on
// the endpoint-deliveries queue (its slow lane for an endpoint slow or failing); a record given
// again has the same webhook-id, a receiver dedupes.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import {
  type DeliveryQueue,
  type EndpointDelivery,
  eventBody,
  laneOf,
} from '#lib/endpointDeliveries/store.ts';
import { type EndpointStore, takesType } from '#lib/endpoints/store.ts';
import { EVENT_TYPES, EVENTS } from '#lib/plants/eventTypes.ts';
import type { StoredPlant } from '#lib/plants/store.ts';
import { linesOf } from '#lib/telemetry.ts';
import {
  NonRetryableError,
  type StreamConsumerDependencies,
  streamConsumer,
} from '#lib/webhooks/batchResponse.ts';
import { eventWebhookId } from '#lib/webhooks/signature.ts';

const plantOf = (image: Record<string, unknown> | undefined) =>
  image && (unmarshall(image as Record<string, AttributeValue>) as StoredPlant);

/** The events a stream record is, each with its owner; none for a record that is no plant's. */
export const plantEventsOf = ({ eventName: name, dynamodb: change }: DynamoDBRecord) => {
  const images = { name, before: plantOf(change?.OldImage), after: plantOf(change?.NewImage) };
  const at = new Date((change?.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000);
  return EVENT_TYPES.flatMap((type) => {
    const plant = EVENTS[type].of(images);
    const { id, createdAt, createdBy: owner, version = 1 } = plant ?? {};
    if (!plant || typeof id !== 'number' || typeof owner !== 'string') return [];
    // one id per change of one plant: a plant deleted and created again under its id is another
    const webhookId = eventWebhookId(type, id, createdAt, version);
    const data = EVENTS[type].data(plant, images);
    // the writing request's id is in the new image; a delete writes none, its old image is older
    const requestTraceId = images.after?.traceId;
    return [
      { owner, type, webhookId, body: eventBody(type, at, data), plantId: id, requestTraceId },
    ];
  });
};

export interface EndpointEventsDependencies extends StreamConsumerDependencies {
  endpoints: Pick<EndpointStore, 'list'>;
  queue: DeliveryQueue;
}

export const queueEndpointEventsHandler = (dependencies: EndpointEventsDependencies) => {
  const { endpoints, queue } = dependencies;
  return streamConsumer(dependencies, async (invocation, record) => {
    const events = plantEventsOf(record);
    if (events.length === 0)
      throw new NonRetryableError(`stream record ${record.eventID} is no change of a plant`);
    // each event to its own plant's owner's endpoints only, whatever a row of the table returns
    const targets = await Promise.all(
      events.map(async (event) => {
        const found = await endpoints.list(event.owner);
        if (found.outcome === 'unavailable') throw found.cause;
        const to = found.endpoints.filter(
          (endpoint) => !endpoint.disabled && takesType(endpoint, event.type),
        );
        return { event, to };
      }),
    );
    const dueAt = Date.now();
    const deliveries = targets.flatMap(({ event, to }) =>
      to.map(
        (endpoint): EndpointDelivery => ({
          ...event,
          endpointId: endpoint.id,
          attempts: 0,
          dueAt,
          ...laneOf(endpoint),
        }),
      ),
    );
    if (deliveries.length === 0) return;
    await queue.send(deliveries);
    const log = linesOf(dependencies, invocation);
    for (const { event, to } of targets.filter(({ to }) => to.length > 0)) {
      const { webhookId, type, plantId, requestTraceId: request_trace_id } = event;
      const fields = { webhookId, type, plantId, request_trace_id, endpoints: to.length };
      log('INFO', 'endpoint deliveries queued', 'EndpointEventsQueued', fields);
    }
  });
};
