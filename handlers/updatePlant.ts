// PUT /plants/{id}: config → clients → route, once per container.
import { loadConfig } from '#lib/config/load.ts';
import { plantRouteSettings } from '#lib/config/plantRoutes.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { dynamoUpdate } from '#lib/plants/dynamoStore.ts';
import { updatePlantHandler } from '#lib/routes/updatePlant.ts';

const config = loadConfig(process.env, plantRouteSettings);

export const handler = updatePlantHandler({
  plantStore: { update: dynamoUpdate(dynamoTargetFrom(config.store)) },
  ...httpDependencies(config),
});
