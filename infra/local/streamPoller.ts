// The table's stream read as Lambda's event source mapping reads it: per shard, the filter's records
// in batches (streamBatches.ts), a checkpoint per shard so that a restart resumes.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import { asLambdaRecord } from '#lib/webhooks/streamFailures.ts';
import { pollUntilStopped } from './queuePoller.ts';
import { type BatchSettings, batchHandler } from './streamBatches.ts';

export interface StreamPollerOptions extends Omit<BatchSettings, 'log' | 'stopping'> {
  client: DynamoDBStreamsClient;
  streamArn: string;
  batchSize: number;
  /** The records the function is given (its filter patterns); the others only move the checkpoint. */
  accepts: (record: DynamoDBRecord) => boolean;
  /** A file that keeps, per shard, the last sequence number handled. */
  checkpointFile?: string;
  log?: (line: string) => void;
}

export interface StreamPoller {
  stop: () => Promise<void>;
  /** Resolves once every record written so far has been handled. */
  drained: () => Promise<void>;
}

const loadCheckpoints = (file: string | undefined): Record<string, string> => {
  try {
    return file ? JSON.parse(readFileSync(file, 'utf8')) : {};
  } catch {
    return {};
  }
};

const POLL_INTERVAL_MS = 100;

export const startStreamPoller = (options: StreamPollerOptions): StreamPoller => {
  const { client, streamArn, checkpointFile, batchSize, accepts, log = () => {} } = options;
  const checkpoints = loadCheckpoints(checkpointFile);
  const saveCheckpoints = () => {
    if (!checkpointFile) return;
    mkdirSync(dirname(checkpointFile), { recursive: true });
    writeFileSync(`${checkpointFile}.tmp`, JSON.stringify(checkpoints));
    renameSync(`${checkpointFile}.tmp`, checkpointFile);
  };
  const iterators = new Map<string, string | undefined>();
  const closed = new Set<string>();
  const stopping = () => poller.stopping();
  const handleBatch = batchHandler({ ...options, log, stopping });

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
      if (closed.has(shardId) || stopping()) continue;
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
      if (stopping()) return read;
      const last = Records.at(-1)?.dynamodb?.SequenceNumber;
      if (last) {
        checkpoints[shardId] = last;
        saveCheckpoints();
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
    // three empty polls: a record appears some milliseconds after its write, one could be too early
    drained: async () => {
      const until = poller.idlePolls() + 3;
      while (poller.idlePolls() < until && !stopping()) await sleep(POLL_INTERVAL_MS / 2);
    },
  };
};
