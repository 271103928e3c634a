// PUT /plants/{id}: replace the caller's plant's content (If-Match and its 412: plantUpdates.ts).
import { jsonRequestBody } from '#lib/http/jsonBody.ts';
import { dynamoUpdate } from '#lib/plants/dynamoStore.ts';
import { PlantPath } from '#lib/plants/params.ts';
import { PlantUpdate } from '#lib/plants/schemas.ts';
import { replacedBy } from '#lib/plants/store.ts';
import { updatePlant } from '#lib/routes/plantUpdates.ts';
import { defineRoute } from '#lib/routes/route.ts';

export default defineRoute({
  method: 'PUT',
  path: '/plants/{id}',
  tables: { plants: ['UpdateItem'] },
  params: PlantPath,
  body: jsonRequestBody(PlantUpdate, { describedAs: 'a Plant', integerFields: ['id'] }),
  dependencies: ({ plants }) => ({ plantStore: { update: dynamoUpdate(plants) } }),
  handle: (request, { plantStore }) => {
    const { id, ...content } = request.body;
    return updatePlant(plantStore, request, replacedBy(content));
  },
});
