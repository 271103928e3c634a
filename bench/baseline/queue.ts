// What the floors of ping and resend share, as a hand-written Lambda would: one SQS client, and a
// delivery due now sent to the endpoint-deliveries queue (the same SendMessageBatch as ours), 202.
import { randomBytes } from 'node:crypto';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { fail, reply } from './common.ts';

const sqs = new SQSClient({ region: process.env.AWS_REGION ?? 'us-east-1' });
const QueueUrl = process.env.ENDPOINT_DELIVERY_QUEUE_URL ?? '';

export const newWebhookId = () => `msg_${randomBytes(16).toString('base64url')}`;

export const queue = async (delivery: {
  owner: string;
  endpointId: string;
  webhookId: string;
  type: string;
  body: string;
}) => {
  const message = { ...delivery, attempts: 0, dueAt: Date.now() };
  try {
    const { Failed = [] } = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl,
        Entries: [{ Id: '0', MessageBody: JSON.stringify(message), DelaySeconds: 0 }],
      }),
    );
    if (Failed.length > 0) return fail(503, 'Unavailable');
  } catch {
    return fail(503, 'Unavailable');
  }
  return reply(202, { webhookId: delivery.webhookId });
};
