// Verifies a webhook delivery as Standard Webhooks says, with node:crypto only: copy verifyWebhook
// into your receiver. `node docs/examples/verify-webhook.mjs` checks it on the test vector.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** How far a delivery's webhook-timestamp may be from now: older ones may be replays. */
const TOLERANCE_SECONDS = 5 * 60;

/**
 * The event of a delivery, or an Error. `secret`: your `whsec_...` secret; `headers`: the request's,
 * names in lower case (as Node gives them); `body`: the raw body, before any JSON parsing;
 * `now`: the time in seconds (a test's fixed time).
 */
export const verifyWebhook = (secret, headers, body, now = Date.now() / 1000) => {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures)
    throw new Error('not a signed delivery: a header is missing');
  if (!/^\d+$/.test(timestamp) || Math.abs(now - Number(timestamp)) > TOLERANCE_SECONDS)
    throw new Error('webhook-timestamp is not within 5 minutes of now');
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  // one `v1,<base64>` per secret the sender signs with (two during a rotation): any may match
  const signed = signatures.split(' ').some((entry) => {
    const [version, signature = ''] = entry.split(',');
    const given = Buffer.from(signature, 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!signed) throw new Error('no signature of webhook-signature is made with this secret');
  return JSON.parse(body.toString());
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const vector = JSON.parse(
    readFileSync(new URL('webhook-test-vector.json', import.meta.url), 'utf8'),
  );
  const at = Number(vector.headers['webhook-timestamp']);
  const event = verifyWebhook(vector.secret, vector.headers, vector.body, at);
  console.log(`the test vector verifies: ${event.type} of plant ${event.data.id}`);
}
