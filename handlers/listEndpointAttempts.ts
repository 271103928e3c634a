// GET /webhooks/{id}/attempts: config → clients → route, once per container.
import { endpointRouteSettings } from '#lib/config/endpoints.ts';
import { loadConfig } from '#lib/config/load.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { dynamoListAttempts } from '#lib/endpointDeliveries/dynamoStore.ts';
import { dynamoGetEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { listEndpointAttemptsHandler } from '#lib/routes/listEndpointAttempts.ts';

const config = loadConfig(process.env, endpointRouteSettings);
const target = dynamoTargetFrom(config.store);

export const handler = listEndpointAttemptsHandler({
  endpointStore: { get: dynamoGetEndpoint(target) },
  attemptStore: { list: dynamoListAttempts(target) },
  ...httpDependencies(config),
});
