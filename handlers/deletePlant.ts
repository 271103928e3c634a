// DELETE /plants/{id}: config → clients → route, once per container.
import { loadConfig } from '#lib/config/load.ts';
import { plantRouteSettings } from '#lib/config/plantRoutes.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { dynamoDelete } from '#lib/plants/dynamoStore.ts';
import { deletePlantHandler } from '#lib/routes/deletePlant.ts';

const config = loadConfig(process.env, plantRouteSettings);

export const handler = deletePlantHandler({
  plantStore: { delete: dynamoDelete(dynamoTargetFrom(config.store)) },
  ...httpDependencies(config),
});
