// POST /webhooks/{id}/ping: a webhook.ping through the same queue as any event; to a disabled
// endpoint too, so that it can be tested before it is enabled again.
import {
  type AttemptStore,
  type DeliveryQueue,
  eventBody,
  newWebhookId,
  PING,
} from '#lib/endpointDeliveries/store.ts';
import { EndpointPath } from '#lib/endpoints/requestSchemas.ts';
import type { EndpointStore } from '#lib/endpoints/store.ts';
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { countedSend, ownedEndpoint, queued } from '#lib/routes/endpointReplies.ts';
import { listedRoute } from '#lib/routes/routeList.ts';

/** What the pipeline checks of the request (no body: one sent is ignored), and the document describes. */
export const pingEndpointRoute = { ...listedRoute('pingEndpoint'), path: EndpointPath };

export const pingEndpointHandler = ({
  endpointStore,
  attemptStore,
  queue,
  ...http
}: HttpDependencies & {
  endpointStore: Pick<EndpointStore, 'get'>;
  attemptStore: Pick<AttemptStore, 'countSend' | 'uncountSend'>;
  queue: DeliveryQueue;
}) =>
  httpRoute(http, pingEndpointRoute, async ({ path: { id }, caller, signal }) => {
    const owned = await ownedEndpoint(endpointStore, caller.sub, id, signal);
    if ('refusal' in owned) return owned.refusal;
    const counted = await countedSend(attemptStore, id, signal);
    if ('refusal' in counted) return counted.refusal;
    const webhookId = newWebhookId();
    const body = eventBody(PING, new Date(), { endpointId: id });
    return queued(
      queue,
      { owner: caller.sub, endpointId: id, webhookId, type: PING, body },
      { metric: 'EndpointsPinged', outcome: 'pinged', giveBack: counted.giveBack },
    );
  });
