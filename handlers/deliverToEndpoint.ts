import { endpointDeliverySettings } from '#lib/config/endpoints.ts';
import { loadConfig } from '#lib/config/load.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { deliverToEndpointHandler } from '#lib/endpointDeliveries/deliverToEndpoint.ts';
import { dynamoRecordAttempt } from '#lib/endpointDeliveries/dynamoStore.ts';
import { dynamoSetEndpointHealth } from '#lib/endpoints/dynamoHealth.ts';
import { dynamoGetEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { createTelemetry } from '#lib/telemetry.ts';
import { sqsDeliveryQueue } from '#lib/webhooks/retries.ts';
import { sqsClient } from '#lib/webhooks/sqsMessages.ts';

const { main, slow, store, ...config } = loadConfig(process.env, endpointDeliverySettings);
const target = dynamoTargetFrom(store);
export const handler = deliverToEndpointHandler({
  endpoints: { get: dynamoGetEndpoint(target), setHealth: dynamoSetEndpointHealth(target) },
  attempts: { record: dynamoRecordAttempt(target) },
  queue: sqsDeliveryQueue(sqsClient(main.region), { main: main.queueUrl, slow: slow.queueUrl }),
  ...config.delivery,
  ...createTelemetry(config.telemetry),
});
