// Lambda's partial batch response (ReportBatchItemFailures), for the stream and the queue: every
// record of a batch is handled at once, and those whose handling threw are reported, so that their
// source offers them again; the others are done.
import type { SQSBatchResponse } from 'aws-lambda';

export const handleEach = async <Item>(
  items: readonly Item[],
  handle: (item: Item) => Promise<void>,
  /**
   * How the source knows an item again: a stream record's sequence number, a message's id. None
   * (never seen) reports an empty one, which makes Lambda offer the whole batch again: nothing lost.
   */
  identifierOf: (item: Item) => string | undefined,
  /** Told of each item handed back, with why. */
  handedBack: (item: Item, error: unknown) => void,
): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    items.map(async (item) => {
      try {
        await handle(item);
      } catch (error) {
        handedBack(item, error);
        batchItemFailures.push({ itemIdentifier: identifierOf(item) ?? '' });
      }
    }),
  );
  return { batchItemFailures };
};
