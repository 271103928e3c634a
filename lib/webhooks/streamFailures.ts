// The stream functions' on-failure destination: Lambda names a batch given up by sequence numbers
// only, so its records are read back from the stream (kept 24 hours) and set aside whole.
import {
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { Context, DynamoDBRecord, SQSRecord } from 'aws-lambda';
import { linesOf } from '#lib/telemetry.ts';
import { queueConsumer, type StreamConsumerDependencies } from '#lib/webhooks/batchResponse.ts';

/** What Lambda's on-failure destination is sent of a DynamoDB stream batch (its invocation record). */
export interface StreamInvocationRecord {
  requestContext: { functionArn: string; condition: string };
  timestamp: string;
  DDBStreamBatchInfo: {
    shardId: string;
    startSequenceNumber: string;
    endSequenceNumber: string;
    batchSize: number;
    streamArn: string;
  };
}

/** A record of the stream as Lambda hands it to a function. */
export const asLambdaRecord = (record: StreamRecord, streamArn: string): DynamoDBRecord =>
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

/** The records of a batch: the first the stream gives from its start, up to its end. */
const recordsOf = async (
  streams: DynamoDBStreamsClient,
  batch: StreamInvocationRecord['DDBStreamBatchInfo'],
) => {
  const { streamArn, shardId, startSequenceNumber } = batch;
  const end = BigInt(batch.endSequenceNumber);
  const records: DynamoDBRecord[] = [];
  let { ShardIterator } = await streams.send(
    new GetShardIteratorCommand({
      StreamArn: streamArn,
      ShardId: shardId,
      ShardIteratorType: 'AT_SEQUENCE_NUMBER',
      SequenceNumber: startSequenceNumber,
    }),
  );
  // a few pages, none past the batch's end: the stream's two live readers share its read limit
  for (let page = 0; ShardIterator && page < 20; page += 1) {
    const { Records = [], NextShardIterator } = await streams.send(
      new GetRecordsCommand({ ShardIterator }),
    );
    for (const record of Records) {
      const sequence = BigInt(record.dynamodb?.SequenceNumber ?? '0');
      if (sequence > end) return records;
      records.push(asLambdaRecord(record, streamArn));
      if (sequence === end) return records;
    }
    ShardIterator = NextShardIterator;
  }
  return records;
};

export interface StreamFailureDependencies extends StreamConsumerDependencies {
  streams: DynamoDBStreamsClient;
}

export const keepFailedStreamRecordsHandler = ({
  streams,
  streamDeadLetters,
  ...telemetry
}: StreamFailureDependencies) => {
  const deadLetterBatch = async (invocation: Context, { body }: SQSRecord) => {
    const batch: StreamInvocationRecord = JSON.parse(body);
    const { requestContext, timestamp, DDBStreamBatchInfo } = batch;
    const records = await recordsOf(streams, DDBStreamBatchInfo);
    // a batch item failure; after five, the queue's redrive policy moves it to stream-dead-letters
    if (records.length === 0) throw new Error('the stream no longer holds the batch: trimmed');
    // arn:aws:lambda:<region>:<account>:function:<name>[:<qualifier>]
    const functionName = requestContext.functionArn.split(':')[6] ?? requestContext.functionArn;
    const reason = `its event source mapping gave up after the retries (${requestContext.condition})`;
    for (const record of records) {
      await streamDeadLetters.put({ functionName, reason, failedAt: timestamp, record });
    }
    const text = 'stream records set aside whole in the stream dead-letter queue';
    const fields = { functionName, shardId: DDBStreamBatchInfo.shardId, records: records.length };
    linesOf(telemetry, invocation)('ERROR', text, 'StreamRecordsSetAside', fields);
  };
  return queueConsumer(telemetry, 'stream failure', deadLetterBatch);
};
