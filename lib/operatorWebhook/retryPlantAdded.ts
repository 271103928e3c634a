// The retry queue's consumer: each event that waited for its next attempt is tried again when it
// is due. One received early (a wait longer than SQS's 15-minute delay) goes back, hidden until it
// is due; one that fails again waits for the next step, or ends in the dead letters.
import type { Context, SQSRecord } from 'aws-lambda';
import { type AttemptDependencies, attemptDelivery } from '#lib/operatorWebhook/attempt.ts';
import { queueConsumer } from '#lib/webhooks/batchResponse.ts';
import { hideIfNotDue, waitingEventOf } from '#lib/webhooks/retries.ts';

export const retryPlantAddedHandler = (dependencies: AttemptDependencies) => {
  const { retryQueue } = dependencies;
  const attempt = attemptDelivery(dependencies);
  const retry = async (context: Context, { body, receiptHandle }: SQSRecord) => {
    const event = waitingEventOf(body);
    await hideIfNotDue(retryQueue, { receiptHandle, what: event.webhookId }, event.dueAt);
    await attempt(context, event, event.attempts);
  };
  return queueConsumer(dependencies, 'retry queue message', retry);
};
