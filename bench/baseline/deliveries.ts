// What the floors that queue deliveries to callers' endpoints share, as a hand-written Lambda
// would: one SQS client, and SendMessageBatch (as ours) to the endpoint-deliveries queue, each
// message in SQS's character set (lib/webhooks/sqsMessages.ts's rule) and each batch within SQS's
// 10 messages and 1 MiB (ten deliveries of a 64 KiB plant take two).
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { messageBody } from '#lib/webhooks/sqsMessages.ts';

const sqs = new SQSClient({ region: process.env.AWS_REGION ?? 'us-east-1' });
const QueueUrl = process.env.ENDPOINT_DELIVERY_QUEUE_URL ?? '';

/** Sends each delivery, in as few batches as SQS takes; throws unless the queue kept every one. */
export const sendDeliveries = async (deliveries: object[]) => {
  const batches: string[][] = [];
  let bytes = 0;
  for (const body of deliveries.map((delivery) => messageBody(delivery))) {
    const size = Buffer.byteLength(body);
    const batch = batches.at(-1);
    if (batch && batch.length < 10 && bytes + size <= 1024 * 1024) {
      batch.push(body);
      bytes += size;
    } else {
      batches.push([body]);
      bytes = size;
    }
  }
  for (const batch of batches) {
    const { Failed = [] } = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl,
        Entries: batch.map((MessageBody, index) => ({
          Id: String(index),
          MessageBody,
          DelaySeconds: 0,
        })),
      }),
    );
    if (Failed.length > 0) throw new Error(`the queue refused ${Failed.length} deliveries`);
  }
};
