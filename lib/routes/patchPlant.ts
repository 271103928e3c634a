// PATCH /plants/{id}: a JSON Merge Patch, so a client that does not know a field cannot erase it.
import { jsonRequestBody } from '#lib/http/jsonBody.ts';
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { PlantPath } from '#lib/plants/params.ts';
import { PlantPatch } from '#lib/plants/schemas.ts';
import type { PlantStore } from '#lib/plants/store.ts';
import { updatePlant } from '#lib/routes/plantUpdates.ts';
import { listedRoute } from '#lib/routes/routeList.ts';

export const patchPlantRoute = {
  ...listedRoute('patchPlant'),
  path: PlantPath,
  body: jsonRequestBody(PlantPatch, {
    describedAs: 'a merge patch of a Plant',
    integerFields: ['id'],
    // another +json type, such as JSON Patch's application/json-patch+json, means something else
    mediaTypes: ['application/merge-patch+json', 'application/json'],
  }),
};

export const patchPlantHandler = ({
  plantStore,
  ...http
}: HttpDependencies & { plantStore: Pick<PlantStore, 'update'> }) =>
  httpRoute(http, patchPlantRoute, (request) => {
    const { id, ...changes } = request.body;
    return updatePlant(plantStore, request, changes);
  });
