// POST /webhooks/{id}/ping: config → clients → route, once per container.
import { deliveryQueueSettings, endpointRouteSettings } from '#lib/config/endpoints.ts';
import { loadConfig } from '#lib/config/load.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { dynamoCountSend, dynamoUncountSend } from '#lib/endpointDeliveries/dynamoStore.ts';
import { dynamoGetEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { pingEndpointHandler } from '#lib/routes/pingEndpoint.ts';
import { sqsDeliveryQueue } from '#lib/webhooks/retries.ts';
import { sqsClient } from '#lib/webhooks/sqsMessages.ts';

const config = loadConfig(process.env, { ...endpointRouteSettings, queue: deliveryQueueSettings });
const target = dynamoTargetFrom(config.store);

export const handler = pingEndpointHandler({
  endpointStore: { get: dynamoGetEndpoint(target) },
  attemptStore: { countSend: dynamoCountSend(target), uncountSend: dynamoUncountSend(target) },
  queue: sqsDeliveryQueue(sqsClient(config.queue.region), { main: config.queue.queueUrl }),
  ...httpDependencies(config),
});
