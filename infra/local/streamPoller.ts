// The table's stream read as Lambda's event source mapping reads it: per shard, the filter's records
// in batches, retried from the first failed record, split on a function error, then written whole
// to the on-failure destination; a checkpoint per shard so that a restart resumes.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { pollUntilStopped } from './queuePoller.ts';

/** A batch given up after the retries: its shard, its records, and why. */
export type FailedBatch = { shardId: string; records: DynamoDBRecord[]; reason: string };

/** A record of the stream as Lambda hands it to a function. */
const asLambdaRecord = (record: StreamRecord, streamArn: string): DynamoDBRecord =>
  ({
    ...record,
    eventSource: 'aws:dynamodb',
    eventSourceARN: streamArn,
    dynamodb: {
      ...record.dynamodb,
      ApproximateCreationDateTime: Math.floor(
        (record.dynamodb?.ApproximateCreationDateTime?.getTime() ?? Date.now()) / 1000,
      ),
    },
  }) as DynamoDBRecord;

export interface StreamPollerOptions {
  client: DynamoDBStreamsClient;
  streamArn: string;
  batchSize: number;
  maximumRetryAttempts: number;
  /** A function error splits the batch in two, each half retried on its own. */
  bisectBatchOnFunctionError?: boolean;
  /** The records the function is given (its filter patterns); the others only move the checkpoint. */
  accepts: (record: DynamoDBRecord) => boolean;
  /** Invokes the function; throws when it fails (a function error). */
  invoke: (event: DynamoDBStreamEvent) => Promise<unknown>;
  /** Lambda's on-failure destination: each batch given up after the retries. */
  onFailure: (batch: FailedBatch) => Promise<void>;
  /** A file that keeps, per shard, the last sequence number handled. */
  checkpointFile?: string;
  log?: (line: string) => void;
}

export type StreamPoller = ReturnType<typeof startStreamPoller>;

const POLL_INTERVAL_MS = 100;
const sequenceOf = (record?: DynamoDBRecord) => record?.dynamodb?.SequenceNumber ?? '';

export const startStreamPoller = (options: StreamPollerOptions) => {
  const { client, streamArn, checkpointFile, batchSize, accepts, log = () => {} } = options;
  const { invoke, onFailure, maximumRetryAttempts } = options;
  let checkpoints: Record<string, string> = {};
  try {
    if (checkpointFile) checkpoints = JSON.parse(readFileSync(checkpointFile, 'utf8'));
  } catch {}
  const iterators = new Map<string, string | undefined>();
  const stopping = () => poller.stopping();
  /** The wait before retry `n` (0 first): doubling from 200 ms, as Lambda backs off, at most 10 s. */
  const backoff = (n: number) => sleep(Math.min(200 * 2 ** n, 10_000));

  const giveUp = async (shardId: string, records: DynamoDBRecord[], reason: string) => {
    log(
      `stream: gave up on ${records.length} records from ${records[0]?.eventID} after ${maximumRetryAttempts} retries (${reason}); written whole to the on-failure destination, the records behind them go on`,
    );
    await onFailure({ shardId, records, reason });
  };

  /** One shard's batch, as Lambda handles it: retried, split, given up after the retries; a batch
   * cut short by a stop is read again from the checkpoint. */
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
        if (options.bisectBatchOnFunctionError && pending.length > 1) {
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
      pending = pending.slice(indexes.includes(-1) ? 0 : Math.min(...indexes));
      if (exhausted) return giveUp(shardId, pending, 'records failed after every retry');
      await backoff(retries);
    }
  };

  const shardIds = async () => {
    const ids: string[] = [];
    let start: string | undefined;
    do {
      const { StreamDescription: stream } = await client.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }),
      );
      for (const { ShardId } of stream?.Shards ?? []) if (ShardId) ids.push(ShardId);
      start = stream?.LastEvaluatedShardId;
    } while (start);
    return ids;
  };

  const iteratorOf = async (ShardId: string) => {
    if (iterators.has(ShardId)) return iterators.get(ShardId);
    const SequenceNumber = checkpoints[ShardId];
    const { ShardIterator } = await client.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId,
        SequenceNumber,
        ShardIteratorType: SequenceNumber ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON',
      }),
    );
    iterators.set(ShardId, ShardIterator);
    return ShardIterator;
  };

  /** Reads each open shard once (a closed one's iterator is none); true when any had records. */
  const pollOnce = async () => {
    let read = false;
    for (const shardId of await shardIds()) {
      if (stopping()) continue;
      const iterator = await iteratorOf(shardId);
      const { Records = [], NextShardIterator } = iterator
        ? await client.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: batchSize }))
        : {};
      iterators.set(shardId, NextShardIterator);
      if (Records.length === 0) continue;
      read = true;
      const batch = Records.map((r) => asLambdaRecord(r, streamArn)).filter(accepts);
      if (batch.length > 0) await handleBatch(shardId, batch);
      if (stopping()) return read;
      const last = Records.at(-1)?.dynamodb?.SequenceNumber;
      if (last) checkpoints[shardId] = last;
      if (last && checkpointFile) {
        mkdirSync(dirname(checkpointFile), { recursive: true });
        writeFileSync(`${checkpointFile}.tmp`, JSON.stringify(checkpoints));
        renameSync(`${checkpointFile}.tmp`, checkpointFile);
      }
    }
    return read;
  };

  // an expired iterator (or a restarted DynamoDB Local) is read again from the checkpoint
  const poller = pollUntilStopped('stream', log, POLL_INTERVAL_MS, pollOnce, () =>
    iterators.clear(),
  );
  return {
    stop: poller.stop,
    /** Resolves once every record written so far has been handled: after three empty polls, as a
     * record appears some milliseconds after its write, and one could be too early. */
    drained: async () => {
      const until = poller.idlePolls() + 3;
      while (poller.idlePolls() < until && !stopping()) await sleep(POLL_INTERVAL_MS / 2);
    },
  };
};
