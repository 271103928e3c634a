// The stream consumer: each newly stored plant, from the table's stream, gets its first attempt at
// once. One that fails waits in the retry queue (lib/webhooks/retryPlantAdded.ts takes it from
// there), so a failing receiver never holds back the plants behind it. A record is reported as
// failed (the stream offers it again) only when neither the retry queue nor the dead letters could
// keep it.
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { type AttemptDependencies, attemptDelivery, handingBack } from '#lib/webhooks/attempt.ts';
import { handleEach } from '#lib/webhooks/batchResponse.ts';
import { plantAddedEvent } from '#lib/webhooks/plantAdded.ts';

export const deliverPlantAddedHandler = (dependencies: AttemptDependencies) => {
  const attempt = attemptDelivery(dependencies);
  const handedBack = handingBack(dependencies);
  return async ({ Records }: DynamoDBStreamEvent, context: Context) => {
    dependencies.start(context);
    return handleEach(
      Records,
      (record) => attempt(context, plantAddedEvent(record), 0),
      (record) => record.dynamodb?.SequenceNumber,
      (record, error) => handedBack(context, `stream record ${record.eventID}`, error),
    );
  };
};
