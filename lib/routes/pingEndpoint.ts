// POST /webhooks/{id}/ping: a webhook.ping through the same queue as any event; to a disabled
// endpoint too, so that it can be tested before it is enabled again.
import { eventBody, newWebhookId, PING } from '#lib/endpointDeliveries/store.ts';
import { EndpointPath } from '#lib/endpoints/requestSchemas.ts';
import type { EndpointStore } from '#lib/endpoints/store.ts';
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { countedSend, ownedEndpoint, type SendDependencies } from '#lib/routes/endpointReplies.ts';
import { listedRoute } from '#lib/routes/routeList.ts';

/** What the pipeline checks of the request (no body: one sent is ignored), and the document describes. */
export const pingEndpointRoute = { ...listedRoute('pingEndpoint'), path: EndpointPath };

export const pingEndpointHandler = ({
  endpointStore,
  attemptStore,
  queue,
  ...http
}: HttpDependencies & SendDependencies & { endpointStore: Pick<EndpointStore, 'get'> }) =>
  httpRoute(http, pingEndpointRoute, async ({ path: { id }, caller, signal }) => {
    const owned = await ownedEndpoint(endpointStore, caller.sub, id, signal);
    if ('refusal' in owned) return owned.refusal;
    const webhookId = newWebhookId();
    const body = eventBody(PING, new Date(), { endpointId: id });
    const delivery = { owner: caller.sub, endpointId: id, webhookId, type: PING, body } as const;
    const pinged = { metric: 'EndpointsPinged', outcome: 'pinged', signal } as const;
    return countedSend({ attemptStore, queue }, delivery, pinged);
  });
