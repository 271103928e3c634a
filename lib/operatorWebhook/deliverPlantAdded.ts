// The stream consumer: each newly stored plant gets its first attempt at once; one that fails waits
// in the retry queue (retryPlantAdded.ts), so a failing receiver never holds back those behind it.
import { type AttemptDependencies, attemptDelivery } from '#lib/operatorWebhook/attempt.ts';
import { plantAddedEvent } from '#lib/operatorWebhook/plantAdded.ts';
import { type StreamConsumerDependencies, streamConsumer } from '#lib/webhooks/batchResponse.ts';

export const deliverPlantAddedHandler = (
  dependencies: AttemptDependencies & StreamConsumerDependencies,
) => {
  const attempt = attemptDelivery(dependencies);
  return streamConsumer(dependencies, async (context, record) => {
    // only inserts are "plant added" (the mapping's filter): another change, redriven, is nothing
    if (record.eventName === 'INSERT') await attempt(context, plantAddedEvent(record), 0);
  });
};
