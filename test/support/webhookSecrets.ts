// Standard Webhooks secrets for tests: whsec_ and a random base64 key.
import { randomBytes } from 'node:crypto';

export const makeWebhookSecret = (bytes = 32) => `whsec_${randomBytes(bytes).toString('base64')}`;
