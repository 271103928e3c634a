// POST /webhooks/{id}/secret: a new signing secret for the caller's endpoint, answered once; the
// one it replaces signs beside it for 24 hours, so the receiver can switch without a lost delivery.
import { EndpointPath } from '#lib/endpoints/requestSchemas.ts';
import type { EndpointStore } from '#lib/endpoints/store.ts';
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { endpointRefusal, newSecret } from '#lib/routes/endpointReplies.ts';
import { listedRoute } from '#lib/routes/routeList.ts';

/** How long a rotated-out secret still signs beside the new one. */
export const OLD_SECRET_SIGNS_MS = 24 * 3600 * 1000;

/** What the pipeline checks of the request (no body: one sent is ignored), and the document describes. */
export const rotateEndpointSecretRoute = {
  ...listedRoute('rotateEndpointSecret'),
  path: EndpointPath,
};

export const rotateEndpointSecretHandler = ({
  endpointStore,
  ...http
}: HttpDependencies & { endpointStore: Pick<EndpointStore, 'rotateSecret'> }) =>
  httpRoute(http, rotateEndpointSecretRoute, async ({ path: { id }, caller, signal }) => {
    const secret = newSecret();
    const keepOldUntil = new Date(Date.now() + OLD_SECRET_SIGNS_MS).toISOString();
    const rotation = { secret, keepOldUntil };
    const result = await endpointStore.rotateSecret(caller.sub, id, rotation, { signal });
    if (result.outcome !== 'rotated') return endpointRefusal(id, result);
    return {
      status: 200,
      body: { secret },
      metric: 'EndpointSecretsRotated',
      outcome: 'rotated',
      log: { endpointId: id },
    };
  });
