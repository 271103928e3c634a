// Standard Webhooks' headers, as every webhook floor signs them: an HMAC-SHA256 of
// "id.timestamp.body" with each key (a KeyObject), base64.
import { createHmac, type KeyObject } from 'node:crypto';

export const signedHeaders = (keys: KeyObject[], id: string, body: string) => {
  const timestamp = Math.floor(Date.now() / 1000);
  const signatures = keys.map(
    (key) =>
      `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`,
  );
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures.join(' '),
  };
};
