// POST /webhooks/{id}/attempts/{webhookId}/resend: a sent event again, same webhook-id and body,
// so a receiver that deduplicates takes it once; refused to a disabled endpoint, which drops it.
import type { AttemptStore, DeliveryQueue } from '#lib/endpointDeliveries/store.ts';
import { EventPath } from '#lib/endpoints/requestSchemas.ts';
import type { EndpointStore } from '#lib/endpoints/store.ts';
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { notFound } from '#lib/http/reply.ts';
import { countedSend, endpointsUnavailable, ownedEndpoint } from '#lib/routes/endpointReplies.ts';
import { listedRoute } from '#lib/routes/routeList.ts';

/** What the pipeline checks of the request (no body: one sent is ignored), and the document describes. */
export const resendEndpointEventRoute = { ...listedRoute('resendEndpointEvent'), path: EventPath };

export const eventNotFoundMessage = (webhookId: string) =>
  `No event ${webhookId} was sent to this endpoint in the last 14 days: take a webhookId from its attempts (GET /webhooks/{id}/attempts)`;

export const endpointDisabledMessage = (id: string) =>
  `Endpoint ${id} is disabled, so nothing is delivered to it: enable it with PUT /webhooks/${id} first, then resend (a ping reaches it while disabled)`;

export const resendEndpointEventHandler = ({
  endpointStore,
  attemptStore,
  queue,
  ...http
}: HttpDependencies & {
  endpointStore: Pick<EndpointStore, 'get'>;
  attemptStore: Pick<AttemptStore, 'event' | 'countSend' | 'uncountSend'>;
  queue: DeliveryQueue;
}) =>
  httpRoute(http, resendEndpointEventRoute, async ({ path: { id, webhookId }, caller, signal }) => {
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
    // counted last: a refused resend (404, 409) uses up none of the endpoint's 10 a minute
    const delivery = { owner: caller.sub, endpointId: id, webhookId, ...sent.event };
    const resent = { metric: 'EndpointEventsResent', outcome: 'resent', signal } as const;
    return countedSend({ attemptStore, queue }, delivery, resent);
  });
