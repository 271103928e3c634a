// The stream consumer: each newly stored plant, from the table's stream, gets its first attempt at
// once. One that fails waits in the retry queue (lib/webhooks/retryPlantAdded.ts takes it from
// there), so a failing receiver never holds back the plants behind it. A record is reported as
// failed (ReportBatchItemFailures: the stream offers it again) only when neither the retry queue
// nor the dead letters could keep it.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { Telemetry } from '#lib/telemetry.ts';
import { type AttemptDependencies, attemptDelivery } from '#lib/webhooks/attempt.ts';
import { plantAddedEvent } from '#lib/webhooks/plantAdded.ts';

export type WebhookDependencies = Omit<AttemptDependencies, keyof Telemetry> & Telemetry;

export const deliverPlantAddedHandler = (dependencies: WebhookDependencies) => {
  const { logger, metrics } = dependencies;
  const attempt = attemptDelivery(dependencies);
  const processor = new BatchProcessor(EventType.DynamoDBStreams);
  return middy(async (event: DynamoDBStreamEvent, context: Context) =>
    processPartialResponse(
      event,
      (record: DynamoDBRecord) => attempt(plantAddedEvent(record), 0),
      processor,
      { context },
    ),
  )
    .use(injectLambdaContext(logger, { logEvent: false, resetKeys: true }))
    .use(logMetrics(metrics, { captureColdStartMetric: true }));
};
