// The stream functions' on-failure destination: config → clients → consumer, once per container.
import { S3Client } from '@aws-sdk/client-s3';
import { loadConfig } from '#lib/config/load.ts';
import { keepFailedStreamRecordsSettings } from '#lib/config/webhook.ts';
import { createTelemetry } from '#lib/telemetry.ts';
import { sqsDeadLetters } from '#lib/webhooks/deadLetters.ts';
import { boundedClientConfig, sqsClient } from '#lib/webhooks/sqsMessages.ts';
import { keepFailedStreamRecordsHandler } from '#lib/webhooks/streamFailures.ts';

const config = loadConfig(process.env, keepFailedStreamRecordsSettings);
const { region, queueUrl } = config.streamDeadLetters;

export const handler = keepFailedStreamRecordsHandler({
  s3: new S3Client(boundedClientConfig(region)),
  streamDeadLetters: sqsDeadLetters(sqsClient(region), queueUrl),
  ...createTelemetry(config.telemetry),
});
