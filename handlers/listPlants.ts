// GET /plants: config → clients → route, once per container.
import { loadConfig } from '#lib/config/load.ts';
import { plantRouteSettings } from '#lib/config/plantRoutes.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { dynamoList } from '#lib/plants/dynamoStore.ts';
import { listPlantsHandler } from '#lib/routes/listPlants.ts';

const config = loadConfig(process.env, plantRouteSettings);

export const handler = listPlantsHandler({
  plantStore: { list: dynamoList(dynamoTargetFrom(config.store)) },
  ...httpDependencies(config),
});
