// POST /webhooks/{id}/attempts/{webhookId}/resend: config → clients → route, once per container.
import { SQSClient } from '@aws-sdk/client-sqs';
import { deliveryQueueSettings, endpointRouteSettings } from '#lib/config/endpoints.ts';
import { loadConfig } from '#lib/config/load.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { dynamoCountSend, dynamoSentEvent } from '#lib/endpointDeliveries/dynamoStore.ts';
import { dynamoGetEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { resendEndpointEventHandler } from '#lib/routes/resendEndpointEvent.ts';
import { sqsDeliveryQueue } from '#lib/webhooks/retries.ts';

const config = loadConfig(process.env, { ...endpointRouteSettings, queue: deliveryQueueSettings });
const target = dynamoTargetFrom(config.store);

export const handler = resendEndpointEventHandler({
  endpointStore: { get: dynamoGetEndpoint(target) },
  attemptStore: { event: dynamoSentEvent(target), countSend: dynamoCountSend(target) },
  queue: sqsDeliveryQueue(new SQSClient({ region: config.queue.region }), config.queue.queueUrl),
  ...httpDependencies(config),
});
