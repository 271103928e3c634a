// A stream batch as Lambda's event source mapping handles it: retried from the first failed record,
// split on a function error, then described to the on-failure destination.
import { setTimeout as sleep } from 'node:timers/promises';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { StreamInvocationRecord } from '#lib/webhooks/streamFailures.ts';

export interface FailedBatch {
  shardId: string;
  firstSequenceNumber: string;
  lastSequenceNumber: string;
  size: number;
  reason: string;
}

/** What Lambda sends its on-failure destination of a batch given up (an invocation record). */
export const invocationRecordOf = (
  batch: Omit<FailedBatch, 'reason'>,
  functionName: string,
  streamArn: string,
): StreamInvocationRecord => ({
  requestContext: {
    functionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    condition: 'RetryAttemptsExhausted',
  },
  timestamp: new Date().toISOString(),
  DDBStreamBatchInfo: {
    shardId: batch.shardId,
    startSequenceNumber: batch.firstSequenceNumber,
    endSequenceNumber: batch.lastSequenceNumber,
    batchSize: batch.size,
    streamArn,
  },
});

export interface BatchSettings {
  maximumRetryAttempts: number;
  /** A function error splits the batch in two, each half retried on its own. */
  bisectBatchOnFunctionError?: boolean;
  /** Invokes the function; throws when it fails (a function error). */
  invoke: (event: DynamoDBStreamEvent) => Promise<unknown>;
  /** Lambda's on-failure destination: an invocation record of each batch given up after the retries. */
  onFailure: (batch: FailedBatch) => Promise<void>;
  log: (line: string) => void;
  /** Whether the poller stops: a batch cut short is read again from the checkpoint. */
  stopping: () => boolean;
}

const sequenceOf = (record: DynamoDBRecord) => record.dynamodb?.SequenceNumber ?? '';

/** Handles one shard's batch, as Lambda does: retried, split, given up after the retries. */
export const batchHandler = (settings: BatchSettings) => {
  const { invoke, onFailure, maximumRetryAttempts, log, stopping } = settings;
  /** The wait before retry `n` (0 first): doubling from 200 ms, as Lambda backs off, at most 10 s. */
  const backoff = (n: number) => sleep(Math.min(200 * 2 ** n, 10_000));

  const handleBatch = async (shardId: string, batch: DynamoDBRecord[], retried = 0) => {
    let pending = batch;
    for (let retries = retried; pending.length > 0 && !stopping(); retries += 1) {
      const exhausted = retries >= maximumRetryAttempts;
      let failures: { itemIdentifier?: string }[];
      try {
        // Lambda's answer; none, or one without batchItemFailures, failed nothing
        const answer = (await invoke({ Records: pending })) as DynamoDBBatchResponse | null;
        failures = answer?.batchItemFailures ?? [];
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (exhausted) return giveUp(shardId, pending, reason);
        await backoff(retries);
        if (settings.bisectBatchOnFunctionError && pending.length > 1) {
          const half = Math.ceil(pending.length / 2);
          await handleBatch(shardId, pending.slice(0, half), retries + 1);
          return handleBatch(shardId, pending.slice(half), retries + 1);
        }
        continue;
      }
      if (failures.length === 0) return;
      // as Lambda does: from the first failed record on, the batch is tried again
      const indexes = failures.map((f) =>
        pending.findIndex((r) => sequenceOf(r) === f.itemIdentifier),
      );
      const first = indexes.includes(-1) ? 0 : Math.min(...indexes);
      pending = pending.slice(first);
      if (exhausted) return giveUp(shardId, pending, 'records failed after every retry');
      await backoff(retries);
    }
  };

  const giveUp = async (shardId: string, records: DynamoDBRecord[], reason: string) => {
    const first = records[0]?.eventID;
    log(
      `stream: gave up on ${records.length} records from ${first} after ${maximumRetryAttempts} retries (${reason}); described in the on-failure destination, the records behind them go on`,
    );
    await onFailure({
      shardId,
      firstSequenceNumber: sequenceOf(records[0] as DynamoDBRecord),
      lastSequenceNumber: sequenceOf(records.at(-1) as DynamoDBRecord),
      size: records.length,
      reason,
    });
  };
  return handleBatch;
};
