// The stream functions' on-failure destination, bare: each message read as S3's notification, each
// object it names (the invocation record Lambda wrote of a batch given up) read with GetObject, its
// payload's records each sent whole, as Lambda handed them, to the stream dead-letter queue: one
// SendMessage per record, in SQS's character set; a message whose records could not be kept
// reported for the queue to offer again.
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBStreamEvent, SQSRecord } from 'aws-lambda';
import { messageBody } from '#lib/webhooks/sqsMessages.ts';
import type { S3Notification, StreamInvocationRecord } from '#lib/webhooks/streamFailures.ts';
import { eachRecord } from './batch.ts';

const env = process.env;
const region = env.AWS_REGION ?? 'us-east-1';
const s3 = new S3Client({ region });
const sqs = new SQSClient({ region });

export const handler = eachRecord<SQSRecord>(
  ({ messageId }) => messageId,
  async ({ body }) => {
    const { Records: objects = [] }: S3Notification = JSON.parse(body);
    for (const { bucket, object } of objects.map((notified) => notified.s3)) {
      // a key in a notification is URL-encoded, a space as +
      const Key = decodeURIComponent(object.key.replaceAll('+', ' '));
      const { Body } = await s3.send(new GetObjectCommand({ Bucket: bucket.name, Key }));
      const { requestContext, timestamp, payload }: StreamInvocationRecord = JSON.parse(
        (await Body?.transformToString()) ?? '',
      );
      const functionName = requestContext.functionArn.split(':')[6];
      const reason = `given up after the retries (${requestContext.condition})`;
      const { Records: records }: DynamoDBStreamEvent = JSON.parse(payload);
      for (const record of records) {
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: env.STREAM_DEAD_LETTER_QUEUE_URL,
            MessageBody: messageBody({ functionName, reason, failedAt: timestamp, record }),
          }),
        );
      }
    }
  },
);
