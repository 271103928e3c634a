// POST /webhooks/{id}/ping: a webhook.ping through the same queue as any event; to a disabled
// endpoint too, so that it can be tested before it is enabled again.
import { deliveryQueueSettings } from '#lib/config/endpoints.ts';
import { webhooksStoreSettings } from '#lib/config/store.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { dynamoCountSend, dynamoUncountSend } from '#lib/endpointDeliveries/dynamoStore.ts';
import { eventBody, newWebhookId, PING } from '#lib/endpointDeliveries/store.ts';
import { dynamoGetEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { EndpointPath } from '#lib/endpoints/requestSchemas.ts';
import type { EndpointStore } from '#lib/endpoints/store.ts';
import { countedSend, ownedEndpoint, type SendDependencies } from '#lib/routes/endpointReplies.ts';
import { defineRoute } from '#lib/routes/route.ts';
import { sqsDeliveryQueue } from '#lib/webhooks/retries.ts';
import { sqsClient } from '#lib/webhooks/sqsMessages.ts';

// No body: one sent is ignored. Counted in the endpoint's minute (an UpdateItem).
export default defineRoute({
  method: 'POST',
  path: '/webhooks/{id}/ping',
  access: 'write',
  tables: { webhooks: ['GetItem', 'UpdateItem'] },
  queues: ['endpointDeliveries'],
  params: EndpointPath,
  settings: { store: webhooksStoreSettings, queue: deliveryQueueSettings },
  dependencies: ({
    store,
    queue,
  }): SendDependencies & { endpointStore: Pick<EndpointStore, 'get'> } => {
    const target = dynamoTargetFrom(store);
    return {
      endpointStore: { get: dynamoGetEndpoint(target) },
      attemptStore: { countSend: dynamoCountSend(target), uncountSend: dynamoUncountSend(target) },
      queue: sqsDeliveryQueue(sqsClient(queue.region), { main: queue.queueUrl }),
    };
  },
  handle: async ({ path: { id }, caller, signal }, { endpointStore, attemptStore, queue }) => {
    const owned = await ownedEndpoint(endpointStore, caller.sub, id, signal);
    if ('refusal' in owned) return owned.refusal;
    const webhookId = newWebhookId();
    const body = eventBody(PING, new Date(), { endpointId: id });
    const delivery = { owner: caller.sub, endpointId: id, webhookId, type: PING, body } as const;
    const pinged = { metric: 'EndpointsPinged', outcome: 'pinged', signal } as const;
    return countedSend({ attemptStore, queue }, delivery, pinged);
  },
});
