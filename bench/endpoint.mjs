// The bench caller's webhook endpoints as DynamoDB stores them (their keys are the store's own,
// lib/endpoints/keys.mjs): seeded into DynamoDB Local by bench/seed.ts, answered by
// bench/probe.mjs's stubs, keyed so by the floors. Plain JavaScript, so that a probe loads no
// TypeScript.
import { attemptKey, endpointKey, eventKey } from '#lib/endpoints/keys.mjs';
import { CALLER } from './plant.mjs';

export {
  callerPartition,
  countKey,
  ENDPOINT_PREFIX,
  endpointKey,
  sendsKey,
} from '#lib/endpoints/keys.mjs';

/** The endpoints the caller has from the start: the most a caller may (MAX_ENDPOINTS_PER_CALLER). */
export const SEEDED_ENDPOINTS = 10;

/** Where the endpoints the bench registers point: an address, so that registering one resolves no name. */
export const ENDPOINT_URL = 'https://127.0.0.1/hooks';

/** The id of the bench's endpoint `n`: ep_ and 22 characters, as the routes' path requires. */
export const endpointId = (n) => `ep_bench${String(n).padStart(17, '0')}`;

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/**
 * The caller's endpoint `n`, pointing at `url` (the bench's receiver, which deliveries to it reach),
 * created at a millisecond of its own (the list sorts by it).
 */
export const endpointItem = (n, url) => {
  const { pk, sk } = endpointKey(CALLER, endpointId(n));
  return {
    pk: { S: pk },
    sk: { S: sk },
    url: { S: url },
    events: { L: [{ S: 'plant.added' }] },
    disabled: { BOOL: false },
    createdAt: { S: new Date(Date.UTC(2026, 10, 22, 10, 0, 0, n % 1000)).toISOString() },
    secrets: { L: [{ M: { secret: { S: SECRET } } }] },
  };
};

/** The event the caller's endpoint 7 was sent: its attempts list, a resend sends it again. */
export const SENT_WEBHOOK_ID = 'msg_bench00000000000000007';
const EVENT_TYPE = { S: 'plant.added' };
// a day on: past any bench run (the store keeps them 14 days)
const expiresAt = () => ({ N: String(Math.ceil(Date.now() / 1000) + 24 * 3600) });

/** Attempt `n` of that event, n seconds ago (the list reads only the last 14 days'). */
export const attemptItem = (n) => {
  const at = new Date(Date.now() - n * 1000).toISOString();
  const { pk, sk } = attemptKey(endpointId(7), { at, webhookId: SENT_WEBHOOK_ID, attempt: n });
  return {
    pk: { S: pk },
    sk: { S: sk },
    webhookId: { S: SENT_WEBHOOK_ID },
    type: EVENT_TYPE,
    attempt: { N: String(n) },
    at: { S: at },
    status: { N: '503' },
    durationMs: { N: '40' },
    expiresAt: expiresAt(),
  };
};

/** The event as endpoint `n` (7 unless said) keeps it for a resend. */
export const eventItem = (n = 7) => {
  const { pk, sk } = eventKey(endpointId(n), SENT_WEBHOOK_ID);
  const body = JSON.stringify({
    type: 'plant.added',
    timestamp: new Date().toISOString(),
    data: { id: 7, name: 'Monstera' },
  });
  return {
    pk: { S: pk },
    sk: { S: sk },
    type: EVENT_TYPE,
    body: { S: body },
    expiresAt: expiresAt(),
  };
};
