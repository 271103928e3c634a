// The "plant added" webhook, from the table's stream: config → clients → consumer, once per
// container.
import { loadConfig } from '#lib/config/load.ts';
import { telemetrySettings } from '#lib/config/telemetry.ts';
import { webhookSettings } from '#lib/config/webhook.ts';
import { createTelemetry } from '#lib/telemetry.ts';
import { deliverPlantAddedHandler } from '#lib/webhooks/deliverPlantAdded.ts';
import { webhookDependencies } from '#lib/webhooks/dependencies.ts';

const config = loadConfig(process.env, { webhook: webhookSettings, telemetry: telemetrySettings });

export const handler = deliverPlantAddedHandler({
  ...webhookDependencies(config.webhook),
  ...createTelemetry(config.telemetry),
});
