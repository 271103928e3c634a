// The "plant added" webhook, from the stream: config → clients → consumer, once per container.
import { loadConfig } from '#lib/config/load.ts';
import { deliverPlantAddedSettings } from '#lib/config/webhook.ts';
import { deliverPlantAddedHandler } from '#lib/operatorWebhook/deliverPlantAdded.ts';
import { webhookDependencies } from '#lib/operatorWebhook/dependencies.ts';
import { createTelemetry } from '#lib/telemetry.ts';
import { sqsDeadLetters } from '#lib/webhooks/deadLetters.ts';
import { sqsClient } from '#lib/webhooks/sqsMessages.ts';

const config = loadConfig(process.env, deliverPlantAddedSettings);
const { region, queueUrl } = config.streamDeadLetters;

export const handler = deliverPlantAddedHandler({
  ...webhookDependencies(config.webhook),
  streamDeadLetters: sqsDeadLetters(sqsClient(region), queueUrl),
  ...createTelemetry(config.telemetry),
});
