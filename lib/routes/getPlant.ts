// GET /plants/{id}: the caller's plant, with its version as a strong ETag for a later If-Match.
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { PlantPath } from '#lib/plants/params.ts';
import type { PlantStore } from '#lib/plants/store.ts';
import { plantRefusal, plantWithEtag } from '#lib/routes/plantReplies.ts';
import { listedRoute } from '#lib/routes/routeList.ts';

export const getPlantRoute = { ...listedRoute('getPlant'), path: PlantPath };

export const getPlantHandler = ({
  plantStore,
  ...http
}: HttpDependencies & { plantStore: Pick<PlantStore, 'get'> }) =>
  httpRoute(http, getPlantRoute, async ({ path: { id }, caller, signal }) => {
    const result = await plantStore.get(id, caller.sub, { signal });
    if (result.outcome !== 'found') return plantRefusal(id, result);
    return plantWithEtag(result.plant, { metric: 'PlantsRead', outcome: 'found' });
  });
