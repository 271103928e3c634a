// The retry queue's consumer: each event that waited for its next attempt is tried again when it
// is due. One received early (a wait longer than SQS's 15-minute delay) goes back, hidden until it
// is due; one that fails again waits for the next step, or ends in the dead letters.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { attemptDelivery } from '#lib/webhooks/attempt.ts';
import type { WebhookDependencies } from '#lib/webhooks/deliverPlantAdded.ts';
import { waitingEventOf } from '#lib/webhooks/retries.ts';

/** Early by less than this is due: SQS's delays and visibility are whole seconds. */
const DUE_MARGIN_MS = 1000;

/** A message that is not due yet: reported as failed, so that the queue keeps it. */
class NotDueYet extends Error {}

export const retryPlantAddedHandler = (dependencies: WebhookDependencies) => {
  const { logger, metrics, retryQueue } = dependencies;
  const attempt = attemptDelivery(dependencies);
  const processor = new BatchProcessor(EventType.SQS);
  const retry = async ({ body, receiptHandle }: SQSRecord) => {
    const event = waitingEventOf(body);
    if (event.dueAt - Date.now() > DUE_MARGIN_MS) {
      await retryQueue.holdUntilDue(receiptHandle, event.dueAt);
      throw new NotDueYet(`${event.webhookId} is due at ${new Date(event.dueAt).toISOString()}`);
    }
    await attempt(event, event.attempts);
  };
  return middy(async (event: SQSEvent, context: Context) =>
    // a batch of events that are all held until due is no failure of the function
    processPartialResponse(event, retry, processor, { context, throwOnFullBatchFailure: false }),
  )
    .use(injectLambdaContext(logger, { logEvent: false, resetKeys: true }))
    .use(logMetrics(metrics, { captureColdStartMetric: true }));
};
