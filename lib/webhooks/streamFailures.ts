// The stream functions' on-failure destination: Lambda writes each batch given up, its records with
// it, to the stream-failure bucket; S3 tells this consumer of each, which sets them aside whole.
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { Context, DynamoDBStreamEvent, SQSRecord } from 'aws-lambda';
import { linesOf } from '#lib/telemetry.ts';
import { queueConsumer, type StreamConsumerDependencies } from '#lib/webhooks/batchResponse.ts';

/** What Lambda writes to an S3 on-failure destination of a DynamoDB stream batch (its invocation record). */
export interface StreamInvocationRecord {
  requestContext: { functionArn: string; condition: string };
  timestamp: string;
  /** Its sequence numbers and times too, which no one here reads. */
  DDBStreamBatchInfo: { shardId: string; batchSize: number; streamArn: string };
  /** The event the function was given, as JSON: its records as Lambda handed them. */
  payload: string;
}

/** What S3 tells the stream-failure queue of each new object (its event notification, as read). */
export interface S3Notification {
  Records?: { s3: { bucket: { name: string }; object: { key: string } } }[];
  /** s3:TestEvent, sent once the notification is set (no Records). */
  Event?: string;
}

export const keepFailedStreamRecordsHandler = ({
  s3,
  streamDeadLetters,
  ...telemetry
}: StreamConsumerDependencies & { s3: S3Client }) => {
  const deadLetterBatch = async (invocation: Context, { body }: SQSRecord) => {
    const { Records: objects, Event }: S3Notification = JSON.parse(body);
    if (!objects && Event === 's3:TestEvent') return;
    // no notification (one of an older version): after five receives, a stream dead letter as it is
    if (!objects) throw new Error('not an S3 notification of a batch given up');
    for (const { bucket, object } of objects.map((notified) => notified.s3)) {
      // a key in a notification is URL-encoded, a space as +
      const Key = decodeURIComponent(object.key.replaceAll('+', ' '));
      const { Body } = await s3.send(new GetObjectCommand({ Bucket: bucket.name, Key }));
      const batch: StreamInvocationRecord = JSON.parse((await Body?.transformToString()) ?? '');
      const { requestContext, timestamp, DDBStreamBatchInfo, payload } = batch;
      const { Records: records }: DynamoDBStreamEvent = JSON.parse(payload);
      // arn:aws:lambda:<region>:<account>:function:<name>[:<qualifier>]
      const functionName = requestContext.functionArn.split(':')[6] ?? requestContext.functionArn;
      const reason = `its event source mapping gave up after the retries (${requestContext.condition})`;
      for (const record of records)
        await streamDeadLetters.put({ functionName, reason, failedAt: timestamp, record });
      const text = 'stream records set aside whole in the stream dead-letter queue';
      const fields = { functionName, shardId: DDBStreamBatchInfo.shardId, records: records.length };
      linesOf(telemetry, invocation)('ERROR', text, 'StreamRecordsSetAside', fields);
    }
  };
  // a notification failed five times (its object gone) moves to the stream dead letters as it is
  return queueConsumer(telemetry, 'stream failure', deadLetterBatch);
};
