// Standard Webhooks signatures: one `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per secret, so
// that during a rotation a receiver holding either accepts the delivery.
import { createHmac, hash, type KeyObject } from 'node:crypto';

/** An event's webhook-id, the same on every attempt and redrive: its `parts` hashed. */
export const eventWebhookId = (...parts: unknown[]) =>
  `msg_${hash('sha256', parts.map(String).join('\n'), 'base64url').slice(0, 32)}`;

/** The webhook-signature header: one `v1,<base64 HMAC-SHA256>` per key; `timestamp` in seconds. */
export const signatureHeader = (
  keys: readonly KeyObject[],
  content: { id: string; timestamp: number; body: string },
) => {
  const signed = `${content.id}.${content.timestamp}.${content.body}`;
  return keys
    .map((key) => `v1,${createHmac('sha256', key).update(signed).digest('base64')}`)
    .join(' ');
};

/** The headers of a delivery of `body` as event `id`, signed now with every key. */
export const webhookHeaders = (keys: readonly KeyObject[], id: string, body: string) => {
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'plant-store-webhooks',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(keys, { id, timestamp, body }),
  };
};
