// POST /webhooks: config → clients → route, once per container.
import { endpointUrlRouteSettings } from '#lib/config/endpoints.ts';
import { loadConfig } from '#lib/config/load.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { dynamoCreateEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { createEndpointHandler } from '#lib/routes/createEndpoint.ts';

const config = loadConfig(process.env, endpointUrlRouteSettings);

export const handler = createEndpointHandler({
  endpointStore: { create: dynamoCreateEndpoint(dynamoTargetFrom(config.store)) },
  policy: { allowPrivate: config.urls.allowPrivate },
  ...httpDependencies(config),
});
