// DELETE /webhooks/{id}: remove one of the caller's endpoints; nothing more is sent to it.
import { EndpointPath } from '#lib/endpoints/requestSchemas.ts';
import type { EndpointStore } from '#lib/endpoints/store.ts';
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { endpointRefusal } from '#lib/routes/endpointReplies.ts';
import { listedRoute } from '#lib/routes/routeList.ts';

export const deleteEndpointRoute = { ...listedRoute('deleteEndpoint'), path: EndpointPath };

export const deleteEndpointHandler = ({
  endpointStore,
  ...http
}: HttpDependencies & { endpointStore: Pick<EndpointStore, 'delete'> }) =>
  httpRoute(http, deleteEndpointRoute, async ({ path: { id }, caller, signal }) => {
    const result = await endpointStore.delete(caller.sub, id, { signal });
    if (result.outcome !== 'deleted') return endpointRefusal(id, result);
    return { status: 204, metric: 'EndpointsDeleted', outcome: 'deleted', log: { endpointId: id } };
  });
