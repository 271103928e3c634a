// The stream consumer: each newly stored plant, from the table's stream, gets its first attempt at
// once. One that fails waits in the retry queue (lib/webhooks/retryPlantAdded.ts takes it from
// there), so a failing receiver never holds back the plants behind it. A record is reported as
// failed (the stream offers it again) only when neither the retry queue nor the dead letters could
// keep it now; one that can never be delivered is set aside whole (batchResponse.ts).
import { type AttemptDependencies, attemptDelivery } from '#lib/webhooks/attempt.ts';
import { type StreamConsumerDependencies, streamConsumer } from '#lib/webhooks/batchResponse.ts';
import { plantAddedEvent } from '#lib/webhooks/plantAdded.ts';

export const deliverPlantAddedHandler = (
  dependencies: AttemptDependencies & StreamConsumerDependencies,
) => {
  const attempt = attemptDelivery(dependencies);
  return streamConsumer(dependencies, async (context, record) => {
    // only inserts are "plant added" (the mapping's filter): another change, redriven, is nothing
    if (record.eventName === 'INSERT') await attempt(context, plantAddedEvent(record), 0);
  });
};
