// DELETE /plants/{id}: one conditional delete: 204, or 404 when none is theirs (a retry included).
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { PlantPath } from '#lib/plants/params.ts';
import type { PlantStore } from '#lib/plants/store.ts';
import { plantRefusal } from '#lib/routes/plantReplies.ts';
import { listedRoute } from '#lib/routes/routeList.ts';

export const deletePlantRoute = { ...listedRoute('deletePlant'), path: PlantPath };

export const deletePlantHandler = ({
  plantStore,
  ...http
}: HttpDependencies & { plantStore: Pick<PlantStore, 'delete'> }) =>
  httpRoute(http, deletePlantRoute, async ({ path: { id }, caller, signal }) => {
    const result = await plantStore.delete(id, caller.sub, { signal });
    if (result.outcome !== 'deleted') return plantRefusal(id, result);
    return { status: 204, metric: 'PlantsDeleted', outcome: 'deleted', log: { plantId: id } };
  });
