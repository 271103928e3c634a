// The table's stream, read as Lambda's event source mapping reads it, for the local run and the
// tests: per shard, the filter's records in batches; a partial failure retried from the first failed
// record, a function error split in two (bisect), each retry later, then the on-failure destination
// told and the records behind go on; a checkpoint file per shard, so a restart resumes.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { asLambdaRecord, type StreamInvocationRecord } from '#lib/webhooks/streamFailures.ts';

export interface EventSourceSettings {
  batchSize: number;
  maximumRetryAttempts: number;
  /** A function error splits the batch in two, each half retried on its own. */
  bisectBatchOnFunctionError?: boolean;
  /** The records the function is given (its filter patterns); the others only move the checkpoint. */
  accepts: (record: DynamoDBRecord) => boolean;
}

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

export interface StreamPollerOptions extends EventSourceSettings {
  client: DynamoDBStreamsClient;
  streamArn: string;
  /** Invokes the function; throws when it fails (a function error). */
  invoke: (event: DynamoDBStreamEvent) => Promise<unknown>;
  /** Lambda's on-failure destination: told of a batch given up after the retries. */
  onFailure: (batch: FailedBatch) => Promise<void>;
  /** A file that keeps, per shard, the last sequence number handled. */
  checkpointFile?: string;
  pollIntervalMs?: number;
  log?: (line: string) => void;
}

export interface StreamPoller {
  stop: () => Promise<void>;
  /** Resolves once every record written so far has been handled. */
  drained: () => Promise<void>;
}

const sequenceOf = (record: DynamoDBRecord) => record.dynamodb?.SequenceNumber ?? '';

const loadCheckpoints = (file: string | undefined): Record<string, string> => {
  try {
    return file ? JSON.parse(readFileSync(file, 'utf8')) : {};
  } catch {
    return {};
  }
};

export const startStreamPoller = (options: StreamPollerOptions): StreamPoller => {
  const {
    client,
    streamArn,
    invoke,
    onFailure,
    checkpointFile,
    batchSize,
    maximumRetryAttempts,
    bisectBatchOnFunctionError = false,
    accepts,
    pollIntervalMs = 100,
    log = () => {},
  } = options;
  const checkpoints = loadCheckpoints(checkpointFile);
  const saveCheckpoints = () => {
    if (!checkpointFile) return;
    mkdirSync(dirname(checkpointFile), { recursive: true });
    writeFileSync(`${checkpointFile}.tmp`, JSON.stringify(checkpoints));
    renameSync(`${checkpointFile}.tmp`, checkpointFile);
  };
  const iterators = new Map<string, string | undefined>();
  const closed = new Set<string>();
  let stopping = false;
  /** Waiting for so many more polls that find nothing. */
  let idleWaiters: { polls: number; resolve: () => void }[] = [];

  /** The wait before retry `n` (0 first): doubling from 200 ms, as Lambda backs off, at most 10 s. */
  const backoff = (n: number) => sleep(Math.min(200 * 2 ** n, 10_000));

  /** One batch, as Lambda handles it: retried, split, given up after the retries. */
  const handleBatch = async (shardId: string, batch: DynamoDBRecord[], retried = 0) => {
    let pending = batch;
    for (let retries = retried; pending.length > 0 && !stopping; retries += 1) {
      const exhausted = retries >= maximumRetryAttempts;
      let failures: { itemIdentifier?: string }[];
      try {
        const answer = (await invoke({ Records: pending })) as {
          batchItemFailures?: { itemIdentifier?: string }[];
        } | null;
        failures = answer?.batchItemFailures ?? [];
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (exhausted) return giveUp(shardId, pending, reason);
        await backoff(retries);
        if (bisectBatchOnFunctionError && pending.length > 1) {
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

  const shardIds = async () => {
    const ids: string[] = [];
    let start: string | undefined;
    do {
      const { StreamDescription } = await client.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }),
      );
      for (const shard of StreamDescription?.Shards ?? [])
        if (shard.ShardId) ids.push(shard.ShardId);
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
    return ids;
  };

  const iteratorOf = async (shardId: string) => {
    if (iterators.has(shardId)) return iterators.get(shardId);
    const after = checkpoints[shardId];
    const { ShardIterator } = await client.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(after
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }
          : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    iterators.set(shardId, ShardIterator);
    return ShardIterator;
  };

  /** Reads each open shard once; true when any had records. */
  const pollOnce = async () => {
    let read = false;
    for (const shardId of await shardIds()) {
      if (closed.has(shardId) || stopping) continue;
      const iterator = await iteratorOf(shardId);
      if (!iterator) {
        closed.add(shardId);
        continue;
      }
      const { Records = [], NextShardIterator } = await client.send(
        new GetRecordsCommand({ ShardIterator: iterator, Limit: batchSize }),
      );
      iterators.set(shardId, NextShardIterator);
      if (!NextShardIterator) closed.add(shardId);
      if (Records.length === 0) continue;
      read = true;
      const batch = Records.map((r) => asLambdaRecord(r, streamArn)).filter(accepts);
      if (batch.length > 0) await handleBatch(shardId, batch);
      // a batch cut short by a stop is read again from the checkpoint at the next start
      if (stopping) return read;
      const last = Records.at(-1)?.dynamodb?.SequenceNumber;
      if (last) {
        checkpoints[shardId] = last;
        saveCheckpoints();
      }
    }
    return read;
  };

  const loop = (async () => {
    while (!stopping) {
      let read = false;
      try {
        read = await pollOnce();
      } catch (error) {
        if (stopping) break;
        log(`stream: ${error instanceof Error ? error.message : String(error)}; retrying`);
        // an expired iterator (or a restarted DynamoDB Local) is read again from the checkpoint
        iterators.clear();
      }
      if (read) continue;
      for (const waiter of idleWaiters) waiter.polls -= 1;
      for (const waiter of idleWaiters.filter((w) => w.polls <= 0)) waiter.resolve();
      idleWaiters = idleWaiters.filter((w) => w.polls > 0);
      await sleep(pollIntervalMs);
    }
  })();

  return {
    stop: async () => {
      stopping = true;
      await loop;
    },
    // three polls in a row that find nothing new: a record appears in the stream some
    // milliseconds after its write, so one empty poll could have started too early
    drained: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push({ polls: 3, resolve });
      }),
  };
};
