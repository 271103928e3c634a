// Lambda's partial batch response (ReportBatchItemFailures), for the stream and the queue: every
// record of a batch is handled at once, and those whose handling threw are reported, so that their
// source offers them again; the others are done.
import type { SQSBatchResponse } from 'aws-lambda';

export const handleEach = async <Item>(
  items: readonly Item[],
  handle: (item: Item) => Promise<void>,
  /** How the source knows an item again: a stream record's sequence number, a message's id. */
  identifierOf: (item: Item) => string | undefined,
): Promise<SQSBatchResponse> => {
  const settled = await Promise.allSettled(items.map(async (item) => handle(item)));
  return {
    batchItemFailures: items.flatMap((item, i) =>
      settled[i]?.status === 'rejected' ? [{ itemIdentifier: identifierOf(item) ?? '' }] : [],
    ),
  };
};
