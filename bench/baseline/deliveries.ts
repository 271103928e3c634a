// What the floors that queue deliveries to callers' endpoints share, as a hand-written Lambda
// would: one SQS client, and one SendMessageBatch (the same as ours) to the endpoint-deliveries
// queue. One batch holds 10, the most endpoints a caller may have.
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';

const sqs = new SQSClient({ region: process.env.AWS_REGION ?? 'us-east-1' });
const QueueUrl = process.env.ENDPOINT_DELIVERY_QUEUE_URL ?? '';

/** Sends each delivery, at once; throws unless the queue kept every one. */
export const sendDeliveries = async (deliveries: object[]) => {
  const { Failed = [] } = await sqs.send(
    new SendMessageBatchCommand({
      QueueUrl,
      Entries: deliveries.map((delivery, index) => ({
        Id: String(index),
        MessageBody: JSON.stringify(delivery),
        DelaySeconds: 0,
      })),
    }),
  );
  if (Failed.length > 0) throw new Error(`the queue refused ${Failed.length} deliveries`);
};
