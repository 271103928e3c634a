// GET /webhooks: the caller's own webhook endpoints, oldest first (at most ten: one page).
import type { EndpointStore } from '#lib/endpoints/store.ts';
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { endpointsUnavailable, endpointView } from '#lib/routes/endpointReplies.ts';
import { listedRoute } from '#lib/routes/routeList.ts';

export const listEndpointsRoute = listedRoute('listEndpoints');

export const listEndpointsHandler = ({
  endpointStore,
  ...http
}: HttpDependencies & { endpointStore: Pick<EndpointStore, 'list'> }) =>
  httpRoute(http, listEndpointsRoute, async ({ caller, signal }) => {
    const result = await endpointStore.list(caller.sub, { signal });
    if (result.outcome === 'unavailable') return endpointsUnavailable(result.cause);
    return {
      status: 200,
      body: result.endpoints.map(endpointView),
      metric: 'EndpointsListed',
      outcome: 'listed',
      log: { count: result.endpoints.length },
    };
  });
