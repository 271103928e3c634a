// POST /webhooks/{id}/attempts/{webhookId}/resend: a sent event again, same webhook-id and body,
// so a receiver that deduplicates takes it once; refused to a disabled endpoint, which drops it.
import { dynamoSentEvent } from '#lib/endpointDeliveries/dynamoStore.ts';
import { dynamoGetEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { EventPath } from '#lib/endpoints/requestSchemas.ts';
import { notFound } from '#lib/http/reply.ts';
import { endpointsUnavailable, ownedEndpoint } from '#lib/routes/endpointReplies.ts';
import { countedSend, sendDependencies } from '#lib/routes/endpointSends.ts';
import { defineRoute } from '#lib/routes/route.ts';

export const eventNotFoundMessage = (webhookId: string) =>
  `No event ${webhookId} was sent to this endpoint in the last 14 days: take a webhookId from its attempts (GET /webhooks/{id}/attempts)`;

export const endpointDisabledMessage = (id: string) =>
  `Endpoint ${id} is disabled, so nothing is delivered to it: enable it with PUT /webhooks/${id} first, then resend (a ping reaches it while disabled)`;

// No body: one sent is ignored. Counted in the caller's minute (an UpdateItem).
export default defineRoute({
  method: 'POST',
  path: '/webhooks/{id}/attempts/{webhookId}/resend',
  tables: { webhooks: ['GetItem', 'UpdateItem'] },
  queues: ['endpointDeliveries'],
  params: EventPath,
  dependencies: ({ webhooks, endpointDeliveries }) => ({
    endpointStore: { get: dynamoGetEndpoint(webhooks) },
    ...sendDependencies(webhooks, endpointDeliveries, { event: dynamoSentEvent(webhooks) }),
  }),
  handle: async (
    { path: { id, webhookId }, caller, signal },
    { endpointStore, attemptStore, queue },
  ) => {
    // both reads at once; another caller's event is never answered, nor counted (its 404 first)
    const [owned, sent] = await Promise.all([
      ownedEndpoint(endpointStore, caller.sub, id, signal),
      attemptStore.event(id, webhookId, { signal }),
    ]);
    if ('refusal' in owned) return owned.refusal;
    const log = { endpointId: id, webhookId };
    if (sent.outcome === 'unavailable') return endpointsUnavailable(sent.cause, log);
    if (sent.outcome === 'notFound')
      return notFound(eventNotFoundMessage(webhookId), 'EndpointEventsNotFound', log);
    if (owned.endpoint.disabled) {
      const message = endpointDisabledMessage(id);
      return { status: 409, message, metric: 'EndpointResendsRefused', outcome: 'disabled', log };
    }
    // counted last: a refused resend (404, 409) uses up none of the caller's 10 a minute
    const delivery = { owner: caller.sub, endpointId: id, webhookId, ...sent.event };
    const resent = { metric: 'EndpointEventsResent', outcome: 'resent', signal } as const;
    return countedSend({ attemptStore, queue }, delivery, resent);
  },
});
