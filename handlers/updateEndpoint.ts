// PUT /webhooks/{id}: config → clients → route, once per container.
import { endpointUrlRouteSettings } from '#lib/config/endpoints.ts';
import { loadConfig } from '#lib/config/load.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { dynamoReplaceEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { updateEndpointHandler } from '#lib/routes/updateEndpoint.ts';

const config = loadConfig(process.env, endpointUrlRouteSettings);

export const handler = updateEndpointHandler({
  endpointStore: { replace: dynamoReplaceEndpoint(dynamoTargetFrom(config.store)) },
  policy: { allowPrivate: config.urls.allowPrivate },
  ...httpDependencies(config),
});
