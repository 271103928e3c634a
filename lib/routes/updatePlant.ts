// PUT /plants/{id}: replace the caller's plant's content (If-Match and its 412: plantUpdates.ts).
import { jsonRequestBody } from '#lib/http/jsonBody.ts';
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { PlantPath } from '#lib/plants/params.ts';
import { PlantUpdate } from '#lib/plants/schemas.ts';
import { type PlantStore, replacedBy } from '#lib/plants/store.ts';
import { updatePlant } from '#lib/routes/plantUpdates.ts';
import { listedRoute } from '#lib/routes/routeList.ts';

export const updatePlantRoute = {
  ...listedRoute('updatePlant'),
  path: PlantPath,
  body: jsonRequestBody(PlantUpdate, { describedAs: 'a Plant', integerFields: ['id'] }),
};

export const updatePlantHandler = ({
  plantStore,
  ...http
}: HttpDependencies & { plantStore: Pick<PlantStore, 'update'> }) =>
  httpRoute(http, updatePlantRoute, (request) => {
    const { id, ...content } = request.body;
    return updatePlant(plantStore, request, replacedBy(content));
  });
