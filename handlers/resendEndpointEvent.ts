// POST /webhooks/{id}/attempts/{webhookId}/resend: config → clients → route, once per container.
import { deliveryQueueSettings, endpointRouteSettings } from '#lib/config/endpoints.ts';
import { loadConfig } from '#lib/config/load.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import {
  dynamoCountSend,
  dynamoSentEvent,
  dynamoUncountSend,
} from '#lib/endpointDeliveries/dynamoStore.ts';
import { dynamoGetEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { resendEndpointEventHandler } from '#lib/routes/resendEndpointEvent.ts';
import { sqsDeliveryQueue } from '#lib/webhooks/retries.ts';
import { sqsClient } from '#lib/webhooks/sqsMessages.ts';

const config = loadConfig(process.env, { ...endpointRouteSettings, queue: deliveryQueueSettings });
const target = dynamoTargetFrom(config.store);

export const handler = resendEndpointEventHandler({
  endpointStore: { get: dynamoGetEndpoint(target) },
  attemptStore: {
    event: dynamoSentEvent(target),
    countSend: dynamoCountSend(target),
    uncountSend: dynamoUncountSend(target),
  },
  queue: sqsDeliveryQueue(sqsClient(config.queue.region), { main: config.queue.queueUrl }),
  ...httpDependencies(config),
});
