// DELETE /webhooks/{id}: config → clients → route, once per container.
import { endpointRouteSettings } from '#lib/config/endpoints.ts';
import { loadConfig } from '#lib/config/load.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { dynamoDeleteEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { deleteEndpointHandler } from '#lib/routes/deleteEndpoint.ts';

const config = loadConfig(process.env, endpointRouteSettings);

export const handler = deleteEndpointHandler({
  endpointStore: { delete: dynamoDeleteEndpoint(dynamoTargetFrom(config.store)) },
  ...httpDependencies(config),
});
