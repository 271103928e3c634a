// POST /plants: wiring only. Config, the store client and the key set are built once per container.
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { createTokenVerifier, keySetFrom, type VerifyToken } from '#lib/auth/tokenVerifier.ts';
import { loadConfig } from '#lib/config.ts';
import { bearerAuth } from '#lib/http/bearerAuth.ts';
import { errorResponder } from '#lib/http/errorResponder.ts';
import { serviceUnavailable } from '#lib/http/httpError.ts';
import { jsonBody } from '#lib/http/jsonBody.ts';
import { createPlantResponse } from '#lib/http/plantResponse.ts';
import type { AuthenticatedContext, HttpResponse, ValidatedEvent } from '#lib/http/types.ts';
import { validateBody } from '#lib/http/validateBody.ts';
import { NewPlant } from '#lib/plant.ts';
import { createDocumentClient } from '#lib/store/dynamoClient.ts';
import { createDynamoPlantStore } from '#lib/store/dynamoPlantStore.ts';
import type { PlantStore } from '#lib/store/plantStore.ts';

export interface CreatePlantDependencies {
  plantStore: PlantStore;
  verifyToken: VerifyToken;
  requiredScope?: string | undefined;
}

/** Answer before Lambda's own timeout would cut us off without an Error body. */
const TIMEOUT_MARGIN_MS = 500;

export const createPlantHandler = ({
  plantStore,
  verifyToken,
  requiredScope,
}: CreatePlantDependencies) =>
  middy<ValidatedEvent<NewPlant>, HttpResponse, Error, AuthenticatedContext>({
    timeoutEarlyInMillis: TIMEOUT_MARGIN_MS,
    timeoutEarlyResponse: () => {
      throw serviceUnavailable('The request ran out of time: retry in a few seconds');
    },
  })
    .use(errorResponder())
    .use(httpHeaderNormalizer())
    .use(bearerAuth({ verifyToken, requiredScope }))
    .use(jsonBody({ integerFields: ['id'] }))
    .use(validateBody(NewPlant))
    .handler(async (event, context, { signal }) =>
      createPlantResponse(await plantStore.create(event.body, context.caller.sub, { signal })),
    );

const config = loadConfig(process.env);

export const handler = createPlantHandler({
  plantStore: createDynamoPlantStore({
    client: createDocumentClient(config.dynamodb),
    table: config.table,
  }),
  verifyToken: createTokenVerifier({
    issuer: config.auth.issuer,
    audience: config.auth.audience,
    keySet: keySetFrom(config.auth.keys),
  }),
  requiredScope: config.auth.requiredScope,
});
