// The "plant added" webhook's retries, from its queue: config → clients → consumer, per container.
import { loadConfig } from '#lib/config/load.ts';
import { retryPlantAddedSettings } from '#lib/config/webhook.ts';
import { webhookDependencies } from '#lib/operatorWebhook/dependencies.ts';
import { retryPlantAddedHandler } from '#lib/operatorWebhook/retryPlantAdded.ts';
import { createTelemetry } from '#lib/telemetry.ts';

const config = loadConfig(process.env, retryPlantAddedSettings);

export const handler = retryPlantAddedHandler({
  ...webhookDependencies(config.webhook),
  ...createTelemetry(config.telemetry),
});
