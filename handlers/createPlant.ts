// POST /plants: config → clients → route, once per container.
import { authSettings } from '#lib/config/auth.ts';
import { loadConfig } from '#lib/config/load.ts';
import { storeSettings } from '#lib/config/store.ts';
import { telemetrySettings } from '#lib/config/telemetry.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { createDocumentClient } from '#lib/plants/dynamoClient.ts';
import { createDynamoPlantStore } from '#lib/plants/dynamoStore.ts';
import { createPlantHandler } from '#lib/routes/createPlant.ts';

const config = loadConfig(process.env, {
  auth: authSettings,
  store: storeSettings,
  telemetry: telemetrySettings,
});

export const handler = createPlantHandler({
  plantStore: createDynamoPlantStore({
    client: createDocumentClient(config.store.dynamodb),
    table: config.store.table,
  }),
  ...httpDependencies(config),
});
