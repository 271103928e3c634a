// Lambda's partial batch response (ReportBatchItemFailures): a batch's records are handled at once;
// those that threw are batch item failures, which their source (stream, queue) offers again.
import type {
  Context,
  DynamoDBRecord,
  DynamoDBStreamEvent,
  SQSBatchResponse,
  SQSEvent,
  SQSRecord,
} from 'aws-lambda';
import { describeError, type Invocation, linesOf, type Telemetry } from '#lib/telemetry.ts';
import type { DeadLetterSink } from '#lib/webhooks/deadLetters.ts';
import { startSubsegment } from '#lib/xray.ts';

export const handleEach = async <Item>(
  items: readonly Item[],
  handle: (item: Item) => Promise<void>,
  // a record's sequence number, a message's id; none reports '': Lambda offers the whole batch again
  identifierOf: (item: Item) => string | undefined,
  onFailure: (item: Item, error: unknown) => void,
): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    items.map(async (item) => {
      try {
        await handle(item);
      } catch (error) {
        onFailure(item, error);
        batchItemFailures.push({ itemIdentifier: identifierOf(item) ?? '' });
      }
    }),
  );
  return { batchItemFailures };
};

/** Logs a batch item failure (`item` names it): its source offers it again. */
const logBatchItemFailure =
  (telemetry: Telemetry) => (invocation: Invocation, item: string, error: unknown) => {
    const text = 'webhook event handed back to its source, which offers it again';
    const fields = { handedBack: item, error: describeError(error) };
    linesOf(telemetry, invocation)('ERROR', text, 'WebhookEventsHandedBack', fields);
  };

/** A failure that will not pass however often it is tried: a record that is no plant's, a message SQS refuses. */
export class NonRetryableError extends Error {}

/** A message that is not due yet: reported as failed, so that the queue keeps it. */
export class NotDueYet extends Error {}

/** An SQS queue's consumer: a message that threw is offered again (logged, unless NotDueYet). */
export const queueConsumer = (
  telemetry: Telemetry,
  messageKind: string,
  handle: (invocation: Context, message: SQSRecord) => Promise<void>,
) => {
  const logFailure = logBatchItemFailure(telemetry);
  return async ({ Records }: SQSEvent, context: Context) => {
    telemetry.start(context);
    return handleEach(
      Records,
      (message) => {
        // its wait in the queue: from its send to this invocation
        startSubsegment('queue wait', Number(message.attributes?.SentTimestamp))?.end();
        return handle(context, message);
      },
      (message) => message.messageId,
      (message, error) => {
        if (!(error instanceof NotDueYet))
          logFailure(context, `${messageKind} ${message.messageId}`, error);
      },
    );
  };
};

/** A stream record set aside whole, with the function that could not handle it and why. */
export interface StreamDeadLetter {
  functionName: string;
  reason: string;
  failedAt: string;
  record: DynamoDBRecord;
}

export interface StreamConsumerDependencies extends Telemetry {
  streamDeadLetters: DeadLetterSink<StreamDeadLetter>;
}

/** A stream's consumer: a NonRetryableError sets its record aside whole; any other is retried. */
export const streamConsumer = (
  { streamDeadLetters, ...telemetry }: StreamConsumerDependencies,
  handle: (invocation: Context, record: DynamoDBRecord) => Promise<void>,
) => {
  const logFailure = logBatchItemFailure(telemetry);
  const handleOrDeadLetter = async (invocation: Context, record: DynamoDBRecord) => {
    try {
      await handle(invocation, record);
    } catch (error) {
      if (!(error instanceof NonRetryableError)) throw error;
      const { functionName } = invocation;
      const failedAt = new Date().toISOString();
      await streamDeadLetters.put({ functionName, reason: error.message, failedAt, record });
      const text = 'stream record set aside whole in the stream dead-letter queue';
      const fields = { eventId: record.eventID, error: describeError(error) };
      linesOf(telemetry, invocation)('ERROR', text, 'StreamRecordsSetAside', fields);
    }
  };
  // Lambda retries a batch from its first batch item failure on: in that retry, what this container
  // handled is not sent twice, nor a failure logged again
  let retry: { from: string | undefined; handled: Set<string>; logged: Set<string> } | undefined;
  return async ({ Records }: DynamoDBStreamEvent, context: Context) => {
    telemetry.start(context);
    const sequenceOf = (record: DynamoDBRecord) => record.dynamodb?.SequenceNumber;
    if (retry?.from !== sequenceOf(Records[0] ?? {})) retry = undefined;
    const { handled, logged } = retry ?? { handled: new Set<string>(), logged: new Set<string>() };
    const response = await handleEach(
      Records.filter((record) => !handled.has(record.eventID ?? '')),
      async (record) => {
        await handleOrDeadLetter(context, record);
        handled.add(record.eventID ?? '');
      },
      sequenceOf,
      (record, error) => {
        if (!logged.has(record.eventID ?? ''))
          logFailure(context, `stream record ${record.eventID}`, error);
        logged.add(record.eventID ?? '');
      },
    );
    const failed = new Set(response.batchItemFailures.map(({ itemIdentifier }) => itemIdentifier));
    const from = Records.find((record) => failed.has(sequenceOf(record) ?? ''));
    retry = failed.size > 0 ? { from: from && sequenceOf(from), handled, logged } : undefined;
    return response;
  };
};
