// Standard Webhooks signatures (standardwebhooks.com): HMAC-SHA256 of "id.timestamp.body" with each
// secret, base64, as `v1,<signature>`, several separated by spaces (during a rotation every secret
// signs, so receivers holding either one accept the delivery).
import { createHmac } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/**
 * The signing keys of `whsec_<base64>` secrets separated by spaces; undefined when any is not one
 * (a key shorter than 24 bytes counts as not one: Standard Webhooks asks for 24 to 64).
 */
export const signingKeys = (secrets: string): Buffer[] | undefined => {
  const keys = secrets
    .split(/\s+/)
    .filter(Boolean)
    .map((secret) => {
      if (!secret.startsWith(SECRET_PREFIX)) return undefined;
      const encoded = secret.slice(SECRET_PREFIX.length);
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
      const key = Buffer.from(encoded, 'base64');
      return key.length >= 24 && key.length <= 64 ? key : undefined;
    });
  if (keys.length === 0 || keys.some((key) => key === undefined)) return undefined;
  return keys as Buffer[];
};

export interface SignedContent {
  id: string;
  /** Seconds since the epoch, as webhook-timestamp carries it. */
  timestamp: number;
  body: string;
}

/** The webhook-signature header: one `v1,<base64 HMAC-SHA256>` per key. */
export const signatureHeader = (keys: readonly Buffer[], { id, timestamp, body }: SignedContent) =>
  keys
    .map(
      (key) =>
        `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`,
    )
    .join(' ');
