// Lambda's S3 on-failure destination of a stream function in the local run: each batch given up
// written whole to the bucket (fauxqs's S3), and S3's notification of it sent to the bucket's queue.
import { randomUUID } from 'node:crypto';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { sendMessages } from '#lib/webhooks/sqsMessages.ts';
import type { StreamInvocationRecord } from '#lib/webhooks/streamFailures.ts';
import type { FailedBatch } from './streamPoller.ts';

/** What Lambda writes its S3 on-failure destination of a batch given up (an invocation record). */
export const invocationRecordOf = (
  { shardId, records }: FailedBatch,
  functionName: string,
): StreamInvocationRecord => ({
  requestContext: {
    functionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    condition: 'RetryAttemptsExhausted',
  },
  timestamp: new Date().toISOString(),
  DDBStreamBatchInfo: {
    shardId,
    batchSize: records.length,
    streamArn: records[0]?.eventSourceARN ?? '',
  },
  payload: JSON.stringify({ Records: records }),
});

/** The destination of `functionName`: its batches, keyed as Lambda keys them (its name for the mapping's id). */
export const streamFailureBucket =
  (s3: S3Client, sqs: SQSClient, bucket: string, queueUrl: string) =>
  (functionName: string) =>
  async (batch: FailedBatch) => {
    const at = new Date().toISOString().slice(0, 19).replaceAll(':', '.');
    const day = at.slice(0, 10).replaceAll('-', '/');
    const key = `aws/lambda/${functionName}/${batch.shardId}/${day}/${at}-${randomUUID()}`;
    const Body = JSON.stringify(invocationRecordOf(batch, functionName));
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body }));
    const s3Event = { bucket: { name: bucket }, object: { key } };
    await sendMessages(sqs, queueUrl, [{ body: { Records: [{ s3: s3Event }] } }]);
  };
