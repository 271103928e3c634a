// Callers' own endpoints, from the table's stream: config → clients → consumer, once per container.
import { SQSClient } from '@aws-sdk/client-sqs';
import { endpointEventSettings } from '#lib/config/endpoints.ts';
import { loadConfig } from '#lib/config/load.ts';
import { dynamoTargetFrom } from '#lib/plants/dynamoStore.ts';
import { createTelemetry } from '#lib/telemetry.ts';
import { dynamoListEndpoints } from '#lib/webhooks/dynamoEndpoints.ts';
import { queueEndpointEventsHandler } from '#lib/webhooks/queueEndpointEvents.ts';
import { sqsDeliveryQueue } from '#lib/webhooks/retries.ts';

const config = loadConfig(process.env, endpointEventSettings);

export const handler = queueEndpointEventsHandler({
  endpoints: { list: dynamoListEndpoints(dynamoTargetFrom(config.store)) },
  queue: sqsDeliveryQueue(new SQSClient({ region: config.queue.region }), config.queue.queueUrl),
  ...createTelemetry(config.telemetry),
});
