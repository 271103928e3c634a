// DELETE /plants/{id}: one conditional delete: 204, or 404 when none is theirs (a retry included).
import { dynamoDelete } from '#lib/plants/dynamoStore.ts';
import { PlantPath } from '#lib/plants/params.ts';
import { plantRefusal } from '#lib/routes/plantReplies.ts';
import { defineRoute } from '#lib/routes/route.ts';

export default defineRoute({
  method: 'DELETE',
  path: '/plants/{id}',
  tables: { plants: ['DeleteItem'] },
  params: PlantPath,
  dependencies: ({ plants }) => ({ plantStore: { delete: dynamoDelete(plants) } }),
  handle: async ({ path: { id }, caller, signal }, { plantStore }) => {
    const result = await plantStore.delete(id, caller.sub, { signal });
    if (result.outcome !== 'deleted') return plantRefusal(id, result);
    return { status: 204, metric: 'PlantsDeleted', outcome: 'deleted', log: { plantId: id } };
  },
});
