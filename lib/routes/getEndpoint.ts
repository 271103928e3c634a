// GET /webhooks/{id}: one of the caller's own webhook endpoints, without its secret.
import { dynamoGetEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { EndpointPath } from '#lib/endpoints/requestSchemas.ts';
import { endpointRefusal, endpointView } from '#lib/routes/endpointReplies.ts';
import { defineRoute } from '#lib/routes/route.ts';

export default defineRoute({
  method: 'GET',
  path: '/webhooks/{id}',
  tables: { webhooks: ['GetItem'] },
  params: EndpointPath,
  dependencies: ({ webhooks }) => ({ endpointStore: { get: dynamoGetEndpoint(webhooks) } }),
  handle: async ({ path: { id }, caller, signal }, { endpointStore }) => {
    const result = await endpointStore.get(caller.sub, id, { signal });
    if (result.outcome !== 'found') return endpointRefusal(id, result);
    return {
      status: 200,
      body: endpointView(result.endpoint),
      metric: 'EndpointsRead',
      outcome: 'found',
      log: { endpointId: id },
    };
  },
});
