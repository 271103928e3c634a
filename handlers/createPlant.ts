// POST /plants: config → clients → route, once per container.
import { loadConfig } from '#lib/config/load.ts';
import { plantRouteSettings } from '#lib/config/plantRoutes.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { dynamoCreate } from '#lib/plants/dynamoStore.ts';
import { createPlantHandler } from '#lib/routes/createPlant.ts';

const config = loadConfig(process.env, plantRouteSettings);

export const handler = createPlantHandler({
  plantStore: { create: dynamoCreate(dynamoTargetFrom(config.store)) },
  ...httpDependencies(config),
});
