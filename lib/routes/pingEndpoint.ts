// POST /webhooks/{id}/ping: a webhook.ping through the same queue as any event; to a disabled
// endpoint too, so that it can be tested before it is enabled again.
import { eventBody, newWebhookId, PING } from '#lib/endpointDeliveries/store.ts';
import { dynamoGetEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { EndpointPath } from '#lib/endpoints/requestSchemas.ts';
import { ownedEndpoint } from '#lib/routes/endpointReplies.ts';
import { countedSend, sendDependencies } from '#lib/routes/endpointSends.ts';
import { defineRoute } from '#lib/routes/route.ts';

// No body: one sent is ignored. Counted in the caller's minute (an UpdateItem).
export default defineRoute({
  method: 'POST',
  path: '/webhooks/{id}/ping',
  tables: { webhooks: ['GetItem', 'UpdateItem'] },
  queues: ['endpointDeliveries'],
  params: EndpointPath,
  dependencies: ({ webhooks, endpointDeliveries }) => ({
    endpointStore: { get: dynamoGetEndpoint(webhooks) },
    ...sendDependencies(webhooks, endpointDeliveries),
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
