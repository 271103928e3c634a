// POST /plants: wiring only. Config, the store client and the key set are built once per container.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { createTokenVerifier, keySetFrom, type VerifyToken } from '#lib/auth/tokenVerifier.ts';
import { loadConfig } from '#lib/config.ts';
import { bearerAuth } from '#lib/http/bearerAuth.ts';
import { errorResponder } from '#lib/http/errorResponder.ts';
import { serviceUnavailable } from '#lib/http/httpError.ts';
import { jsonBody } from '#lib/http/jsonBody.ts';
import { createPlantResponse } from '#lib/http/plantResponse.ts';
import { requestTelemetry } from '#lib/http/requestTelemetry.ts';
import type { AuthenticatedContext, HttpResponse, ValidatedEvent } from '#lib/http/types.ts';
import { validateBody } from '#lib/http/validateBody.ts';
import { NewPlant } from '#lib/plant.ts';
import { createDocumentClient } from '#lib/store/dynamoClient.ts';
import { createDynamoPlantStore } from '#lib/store/dynamoPlantStore.ts';
import type { PlantStore } from '#lib/store/plantStore.ts';
import { createTelemetry, type Telemetry } from '#lib/telemetry.ts';

export interface CreatePlantDependencies extends Telemetry {
  plantStore: PlantStore;
  verifyToken: VerifyToken;
  requiredScope?: string | undefined;
}

/** Answer before Lambda's own timeout would cut us off without an Error body. */
export const TIMEOUT_MARGIN_MS = 500;

export const createPlantHandler = ({
  plantStore,
  verifyToken,
  requiredScope,
  logger,
  metrics,
}: CreatePlantDependencies) =>
  middy<ValidatedEvent<NewPlant>, HttpResponse, Error, AuthenticatedContext>({
    timeoutEarlyInMillis: TIMEOUT_MARGIN_MS,
    timeoutEarlyResponse: () => {
      throw serviceUnavailable('The request ran out of time: retry in a few seconds');
    },
  })
    // the event is never logged, whatever POWERTOOLS_LOGGER_LOG_EVENT says: it holds the token
    // and the body
    .use(injectLambdaContext(logger, { logEvent: false, resetKeys: true }))
    .use(logMetrics(metrics, { captureColdStartMetric: true }))
    .use(requestTelemetry({ logger, metrics, route: 'POST /plants' }))
    .use(errorResponder())
    .use(httpHeaderNormalizer())
    .use(bearerAuth({ verifyToken, requiredScope }))
    .use(jsonBody({ integerFields: ['id'] }))
    .use(validateBody(NewPlant))
    .handler(async (event, context, { signal }) => {
      const result = await plantStore.create(event.body, context.caller.sub, { signal });
      context.plantOutcome = result.outcome;
      return createPlantResponse(result);
    });

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
  ...createTelemetry(config.telemetry),
});
