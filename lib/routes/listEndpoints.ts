// GET /webhooks: the caller's own webhook endpoints, oldest first (at most ten: one page).
// Every change to a caller's endpoints is a transaction with the caller's count of them.
import { dynamoListEndpoints } from '#lib/endpoints/dynamoStore.ts';
import { endpointsUnavailable, endpointView } from '#lib/routes/endpointReplies.ts';
import { defineRoute } from '#lib/routes/route.ts';

export default defineRoute({
  method: 'GET',
  path: '/webhooks',
  tables: { webhooks: ['Query'] },
  dependencies: ({ webhooks }) => ({ endpointStore: { list: dynamoListEndpoints(webhooks) } }),
  handle: async ({ caller, signal }, { endpointStore }) => {
    const result = await endpointStore.list(caller.sub, { signal });
    if (result.outcome === 'unavailable') return endpointsUnavailable(result.cause);
    return {
      status: 200,
      body: result.endpoints.map(endpointView),
      metric: 'EndpointsListed',
      outcome: 'listed',
      log: { count: result.endpoints.length },
    };
  },
});
