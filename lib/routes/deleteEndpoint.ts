// DELETE /webhooks/{id}: remove one of the caller's endpoints; nothing more is sent to it.
import { dynamoDeleteEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { EndpointPath } from '#lib/endpoints/requestSchemas.ts';
import { endpointRefusal } from '#lib/routes/endpointReplies.ts';
import { defineRoute } from '#lib/routes/route.ts';

export default defineRoute({
  method: 'DELETE',
  path: '/webhooks/{id}',
  tables: { webhooks: ['DeleteItem', 'UpdateItem'] },
  params: EndpointPath,
  dependencies: ({ webhooks }) => ({ endpointStore: { delete: dynamoDeleteEndpoint(webhooks) } }),
  handle: async ({ path: { id }, caller, signal }, { endpointStore }) => {
    const result = await endpointStore.delete(caller.sub, id, { signal });
    if (result.outcome !== 'deleted') return endpointRefusal(id, result);
    return { status: 204, metric: 'EndpointsDeleted', outcome: 'deleted', log: { endpointId: id } };
  },
});
