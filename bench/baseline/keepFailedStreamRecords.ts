// The stream functions' on-failure destination, bare: each message's invocation record parsed, its
// batch's records read back from the stream (GetShardIterator at its first, GetRecords up to its
// last), each sent whole, as Lambda hands it, to the stream dead-letter queue: one SendMessage
// per record, in SQS's character set; a message whose records could not be kept reported for the
// queue to offer again.
import {
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord, SQSRecord } from 'aws-lambda';
import { messageBody } from '#lib/webhooks/sqsMessages.ts';
import { asLambdaRecord, type StreamInvocationRecord } from '#lib/webhooks/streamFailures.ts';
import { eachRecord } from './batch.ts';

const env = process.env;
const region = env.AWS_REGION ?? 'us-east-1';
const { DYNAMODB_ENDPOINT: endpoint } = env;
const streams = new DynamoDBStreamsClient({ region, ...(endpoint && { endpoint }) });
const sqs = new SQSClient({ region });

/** The batch's records, as Lambda handed them to the function. */
const recordsOf = async (batch: StreamInvocationRecord['DDBStreamBatchInfo']) => {
  const end = BigInt(batch.endSequenceNumber);
  const records: DynamoDBRecord[] = [];
  let { ShardIterator } = await streams.send(
    new GetShardIteratorCommand({
      StreamArn: batch.streamArn,
      ShardId: batch.shardId,
      ShardIteratorType: 'AT_SEQUENCE_NUMBER',
      SequenceNumber: batch.startSequenceNumber,
    }),
  );
  // a batch is at most 10,000 records: a few pages
  for (let page = 0; ShardIterator && page < 20; page += 1) {
    const { Records = [], NextShardIterator } = await streams.send(
      new GetRecordsCommand({ ShardIterator }),
    );
    for (const record of Records) {
      const sequence = BigInt(record.dynamodb?.SequenceNumber ?? 0);
      if (sequence > end) return records;
      records.push(asLambdaRecord(record, batch.streamArn));
      if (sequence === end) return records;
    }
    ShardIterator = NextShardIterator;
  }
  return records;
};

export const handler = eachRecord<SQSRecord>(
  ({ messageId }) => messageId,
  async ({ body }) => {
    const { requestContext, timestamp, DDBStreamBatchInfo } = JSON.parse(
      body,
    ) as StreamInvocationRecord;
    const functionName = requestContext.functionArn.split(':')[6];
    const reason = `given up after the retries (${requestContext.condition})`;
    for (const record of await recordsOf(DDBStreamBatchInfo)) {
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: env.STREAM_DEAD_LETTER_QUEUE_URL,
          MessageBody: messageBody({ functionName, reason, failedAt: timestamp, record }),
        }),
      );
    }
  },
);
