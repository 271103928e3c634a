// POST /webhooks/{id}/ping: a webhook.ping through the same queue as any event; to a disabled
// endpoint too, so that it can be tested before it is enabled again.
import { dynamoCountSend, dynamoUncountSend } from '#lib/endpointDeliveries/dynamoStore.ts';
import {
  type DeliveryQueue,
  eventBody,
  newWebhookId,
  PING,
} from '#lib/endpointDeliveries/store.ts';
import { dynamoGetEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { EndpointPath } from '#lib/endpoints/requestSchemas.ts';
import { countedSend, ownedEndpoint } from '#lib/routes/endpointReplies.ts';
import { defineRoute } from '#lib/routes/route.ts';
import { sqsDeliveryQueue } from '#lib/webhooks/retries.ts';
import { sqsClient } from '#lib/webhooks/sqsMessages.ts';

// No body: one sent is ignored. Counted in the endpoint's minute (an UpdateItem).
export default defineRoute({
  method: 'POST',
  path: '/webhooks/{id}/ping',
  tables: { webhooks: ['GetItem', 'UpdateItem'] },
  queues: ['endpointDeliveries'],
  params: EndpointPath,
  dependencies: ({ webhooks, endpointDeliveries }) => ({
    endpointStore: { get: dynamoGetEndpoint(webhooks) },
    attemptStore: {
      countSend: dynamoCountSend(webhooks),
      uncountSend: dynamoUncountSend(webhooks),
    },
    // the routes send only, on the main lane: the fakes of tests need no more (here, not in the
    // replies every endpoint route bundles: an SQS client only where a route sends)
    queue: sqsDeliveryQueue(sqsClient(endpointDeliveries.region), {
      main: endpointDeliveries.queueUrl,
    }) as DeliveryQueue,
  }),
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
