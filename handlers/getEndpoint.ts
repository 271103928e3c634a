// GET /webhooks/{id}: config → clients → route, once per container.
import { endpointRouteSettings } from '#lib/config/endpoints.ts';
import { loadConfig } from '#lib/config/load.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { dynamoGetEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { getEndpointHandler } from '#lib/routes/getEndpoint.ts';

const config = loadConfig(process.env, endpointRouteSettings);

export const handler = getEndpointHandler({
  endpointStore: { get: dynamoGetEndpoint(dynamoTargetFrom(config.store)) },
  ...httpDependencies(config),
});
