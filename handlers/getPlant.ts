// GET /plants/{id}: config → clients → route, once per container.
import { loadConfig } from '#lib/config/load.ts';
import { plantRouteSettings } from '#lib/config/plantRoutes.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { dynamoGet } from '#lib/plants/dynamoStore.ts';
import { getPlantHandler } from '#lib/routes/getPlant.ts';

const config = loadConfig(process.env, plantRouteSettings);

export const handler = getPlantHandler({
  plantStore: { get: dynamoGet(dynamoTargetFrom(config.store)) },
  ...httpDependencies(config),
});
