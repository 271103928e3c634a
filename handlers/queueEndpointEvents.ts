// Callers' own endpoints, from the table's stream: config → clients → consumer, once per container.
import { endpointEventSettings } from '#lib/config/endpoints.ts';
import { loadConfig } from '#lib/config/load.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { queueEndpointEventsHandler } from '#lib/endpointDeliveries/queueEndpointEvents.ts';
import { dynamoListEndpoints } from '#lib/endpoints/dynamoStore.ts';
import { createTelemetry } from '#lib/telemetry.ts';
import { sqsDeadLetters } from '#lib/webhooks/deadLetters.ts';
import { sqsDeliveryQueue } from '#lib/webhooks/retries.ts';
import { sqsClient } from '#lib/webhooks/sqsMessages.ts';

const config = loadConfig(process.env, endpointEventSettings);
const sqs = sqsClient(config.queue.region);

export const handler = queueEndpointEventsHandler({
  endpoints: { list: dynamoListEndpoints(dynamoTargetFrom(config.store)) },
  queue: sqsDeliveryQueue(sqs, { main: config.queue.queueUrl, slow: config.slowQueue.queueUrl }),
  streamDeadLetters: sqsDeadLetters(sqs, config.streamDeadLetters.queueUrl),
  ...createTelemetry(config.telemetry),
});
