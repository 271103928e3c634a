// POST /webhooks/{id}/secret: config → clients → route, once per container.
import { endpointRouteSettings } from '#lib/config/endpoints.ts';
import { loadConfig } from '#lib/config/load.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { dynamoRotateEndpointSecret } from '#lib/endpoints/dynamoRotation.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { rotateEndpointSecretHandler } from '#lib/routes/rotateEndpointSecret.ts';

const config = loadConfig(process.env, endpointRouteSettings);

export const handler = rotateEndpointSecretHandler({
  endpointStore: { rotateSecret: dynamoRotateEndpointSecret(dynamoTargetFrom(config.store)) },
  ...httpDependencies(config),
});
