// The stream functions' on-failure destination: config → clients → consumer, once per container.
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { loadConfig } from '#lib/config/load.ts';
import { dynamoClientConfig } from '#lib/config/store.ts';
import { keepFailedStreamRecordsSettings } from '#lib/config/webhook.ts';
import { createTelemetry } from '#lib/telemetry.ts';
import { sqsDeadLetters } from '#lib/webhooks/deadLetters.ts';
import { sqsClient } from '#lib/webhooks/sqsMessages.ts';
import { keepFailedStreamRecordsHandler } from '#lib/webhooks/streamFailures.ts';

const config = loadConfig(process.env, keepFailedStreamRecordsSettings);

export const handler = keepFailedStreamRecordsHandler({
  streams: new DynamoDBStreamsClient(dynamoClientConfig(config.dynamodb)),
  streamDeadLetters: sqsDeadLetters(
    sqsClient(config.dynamodb.region),
    config.streamDeadLetters.queueUrl,
  ),
  ...createTelemetry(config.telemetry),
});
