// Every request no route matches (404, or 405 with Allow): config → route, once per container.
import { loadConfig } from '#lib/config/load.ts';
import { unmatchedRouteSettings } from '#lib/config/telemetry.ts';
import { unmatchedRouteHandler } from '#lib/routes/unmatchedRoute.ts';
import { createTelemetry } from '#lib/telemetry.ts';

const config = loadConfig(process.env, unmatchedRouteSettings);

export const handler = unmatchedRouteHandler(createTelemetry(config.telemetry));
