// The retry queue's consumer: each waiting event is attempted when due; one received early (a wait
// past SQS's 15-minute delay) goes back, hidden until due; one failing again waits or is dead-lettered.
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
