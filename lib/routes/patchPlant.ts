// PATCH /plants/{id}: a JSON Merge Patch, so a client that does not know a field cannot erase it.
import { jsonRequestBody } from '#lib/http/jsonBody.ts';
import { dynamoUpdate } from '#lib/plants/dynamoStore.ts';
import { PlantPath } from '#lib/plants/params.ts';
import { PlantPatch } from '#lib/plants/schemas.ts';
import { updatePlant } from '#lib/routes/plantUpdates.ts';
import { defineRoute } from '#lib/routes/route.ts';

export default defineRoute({
  method: 'PATCH',
  path: '/plants/{id}',
  tables: { plants: ['UpdateItem'] },
  params: PlantPath,
  body: jsonRequestBody(PlantPatch, {
    describedAs: 'a merge patch of a Plant',
    integerFields: ['id'],
    // another +json type, such as JSON Patch's application/json-patch+json, means something else
    mediaTypes: ['application/merge-patch+json', 'application/json'],
  }),
  dependencies: ({ plants }) => ({ plantStore: { update: dynamoUpdate(plants) } }),
  handle: (request, { plantStore }) => {
    const { id, ...changes } = request.body;
    return updatePlant(plantStore, request, changes);
  },
});
