// What the floors of ping and resend share, as a hand-written Lambda would: the same count of the
// caller's pings and resends in its minute (one conditional UpdateItem), and a delivery due now
// sent to the endpoint-deliveries queue (bench/baseline/deliveries.ts), 202.
import { randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sendsKey } from '#lib/endpoints/keys.ts';
import { client, fail, reply, webhooksTable } from './common.ts';
import { sendDeliveries } from './deliveries.ts';

/** Whether the caller may send this ping or resend: at most 10 a minute. */
export const counted = async (owner: string) => {
  const ends = (Math.floor(Date.now() / 60_000) + 1) * 60_000;
  try {
    await client.send(
      new UpdateCommand({
        TableName: webhooksTable,
        Key: sendsKey(owner, new Date(ends - 60_000).toISOString()),
        UpdateExpression: 'ADD sends :one SET expiresAt = :ends',
        ConditionExpression: 'attribute_not_exists(sends) OR sends < :most',
        ExpressionAttributeValues: { ':one': 1, ':most': 10, ':ends': ends / 1000 },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};

export const newWebhookId = () => `msg_${randomBytes(16).toString('base64url')}`;

export const queue = async (delivery: {
  owner: string;
  endpointId: string;
  webhookId: string;
  type: string;
  body: string;
}) => {
  try {
    await sendDeliveries([{ ...delivery, attempts: 0, dueAt: Date.now() }]);
  } catch {
    return fail(503, 'Unavailable');
  }
  return reply(202, { webhookId: delivery.webhookId });
};
