// PUT /plants/{id}: config → clients → route, once per container.
import { loadConfig } from '#lib/config/load.ts';
import { plantRouteSettings } from '#lib/config/plantRoutes.ts';
import { dynamoTargetFrom } from '#lib/dynamo/client.ts';
import { httpDependencies } from '#lib/http/dependencies.ts';
import { dynamoUpdate } from '#lib/plants/dynamoStore.ts';
import { updatePlantHandler } from '#lib/routes/updatePlant.ts';
import { currentTraceId, traced } from '#lib/telemetry.ts';

const config = loadConfig(process.env, plantRouteSettings);

// each write keeps its request's trace id on the plant, for the stream's consumers to log
const target = { ...dynamoTargetFrom(config.store), traceId: currentTraceId };

export const handler = traced(
  updatePlantHandler({ plantStore: { update: dynamoUpdate(target) }, ...httpDependencies(config) }),
);
