// GET /plants/{id}: the caller's plant, with its version as a strong ETag for a later If-Match.
import { dynamoGet } from '#lib/plants/dynamoStore.ts';
import { PlantPath } from '#lib/plants/params.ts';
import { plantRefusal, plantWithEtag } from '#lib/routes/plantReplies.ts';
import { defineRoute } from '#lib/routes/route.ts';

export default defineRoute({
  method: 'GET',
  path: '/plants/{id}',
  tables: { plants: ['GetItem'] },
  params: PlantPath,
  dependencies: ({ plants }) => ({ plantStore: { get: dynamoGet(plants) } }),
  handle: async ({ path: { id }, caller, signal }, { plantStore }) => {
    const result = await plantStore.get(id, caller.sub, { signal });
    if (result.outcome !== 'found') return plantRefusal(id, result);
    return plantWithEtag(result.plant, { metric: 'PlantsRead', outcome: 'found' });
  },
});
