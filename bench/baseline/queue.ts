// What the floors of ping and resend share, as a hand-written Lambda would: a delivery due now sent
// to the endpoint-deliveries queue (bench/baseline/deliveries.ts), 202.
import { randomBytes } from 'node:crypto';
import { fail, reply } from './common.ts';
import { sendDeliveries } from './deliveries.ts';

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
