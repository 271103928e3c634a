// GET /webhooks: config → clients → route, once per container.
import { endpointRouteSettings } from '#lib/config/endpoints.ts';
import { loadConfig } from '#lib/config/load.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { dynamoListEndpoints } from '#lib/endpoints/dynamoStore.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { listEndpointsHandler } from '#lib/routes/listEndpoints.ts';

const config = loadConfig(process.env, endpointRouteSettings);

export const handler = listEndpointsHandler({
  endpointStore: { list: dynamoListEndpoints(dynamoTargetFrom(config.store)) },
  ...httpDependencies(config),
});
