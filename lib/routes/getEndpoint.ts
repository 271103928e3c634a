// GET /webhooks/{id}: one of the caller's own webhook endpoints, without its secret.
import { EndpointPath } from '#lib/endpoints/requestSchemas.ts';
import type { EndpointStore } from '#lib/endpoints/store.ts';
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { endpointRefusal, endpointView } from '#lib/routes/endpointReplies.ts';
import { listedRoute } from '#lib/routes/routeList.ts';

export const getEndpointRoute = { ...listedRoute('getEndpoint'), path: EndpointPath };

export const getEndpointHandler = ({
  endpointStore,
  ...http
}: HttpDependencies & { endpointStore: Pick<EndpointStore, 'get'> }) =>
  httpRoute(http, getEndpointRoute, async ({ path: { id }, caller, signal }) => {
    const result = await endpointStore.get(caller.sub, id, { signal });
    if (result.outcome !== 'found') return endpointRefusal(id, result);
    return {
      status: 200,
      body: endpointView(result.endpoint),
      metric: 'EndpointsRead',
      outcome: 'found',
      log: { endpointId: id },
    };
  });
