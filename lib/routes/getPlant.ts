// GET /plants/{id}: the caller's plant, with its version as a strong ETag for a later If-Match.
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { PlantPath } from '#lib/plants/params.ts';
import type { PlantStore } from '#lib/plants/store.ts';
import { plantNotFound, plantWithEtag, REALM, storeUnavailable } from '#lib/routes/plantsApi.ts';

export interface GetPlantDependencies extends HttpDependencies {
  plantStore: Pick<PlantStore, 'get'>;
}

export const getPlantHandler = ({ plantStore, ...http }: GetPlantDependencies) =>
  httpRoute(
    http,
    { name: 'GET /plants/{id}', access: 'read', realm: REALM, path: PlantPath },
    async ({ path: { id }, caller, signal }) => {
      const result = await plantStore.get(id, caller.sub, { signal });
      switch (result.outcome) {
        case 'found':
          return plantWithEtag(result.plant, { metric: 'PlantsRead', outcome: 'found' });
        case 'notFound':
          return plantNotFound(id, result);
        case 'unavailable':
          return storeUnavailable(result.cause, { plantId: id });
      }
    },
  );
