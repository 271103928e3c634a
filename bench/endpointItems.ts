// The bench caller's endpoints, endpoint 7's attempts and its sent event, as DynamoDB stores them
// (keyed by lib/endpoints/keys.ts): seeded into DynamoDB Local by bench/seed.ts, and answered by
// bench/probe.mjs's stubs, which take them as data (stubItems) so that a probe loads no TypeScript.
import { marshall } from '@aws-sdk/util-dynamodb';
import { attemptKey, endpointKey, eventKey } from '#lib/endpoints/keys.ts';
import { CALLER, endpointId, SEEDED_ENDPOINTS, SENT_WEBHOOK_ID } from './requests.mjs';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
// a day on: past any bench run (the store keeps them 14 days)
const expiresAt = () => Math.ceil(Date.now() / 1000) + 24 * 3600;

/** Endpoint `n` pointing at `url`, created at a millisecond of its own (the list sorts by it). */
export const endpointItem = (n: number, url: string) =>
  marshall({
    ...endpointKey(CALLER, endpointId(n)),
    url,
    events: ['plant.added'],
    disabled: false,
    createdAt: new Date(Date.UTC(2026, 10, 22, 10, 0, 0, n % 1000)).toISOString(),
    secrets: [{ secret: SECRET }],
  });

/** Attempt `n` of the sent event, n seconds ago (the list reads only the last 14 days'). */
export const attemptItem = (n: number) => {
  const at = new Date(Date.now() - n * 1000).toISOString();
  const key = attemptKey(endpointId(7), { at, webhookId: SENT_WEBHOOK_ID, attempt: n });
  const attempt = { webhookId: SENT_WEBHOOK_ID, type: 'plant.added', attempt: n, at, status: 503 };
  return marshall({ ...key, ...attempt, durationMs: 40, expiresAt: expiresAt() });
};

/** The event as endpoint `n` (7 unless said) keeps it for a resend. */
export const eventItem = (n = 7) => {
  const data = { id: 7, name: 'Monstera' };
  const body = JSON.stringify({ type: 'plant.added', timestamp: new Date().toISOString(), data });
  const key = eventKey(endpointId(n), SENT_WEBHOOK_ID);
  return marshall({ ...key, type: 'plant.added', body, expiresAt: expiresAt() });
};

/** BENCH_STUB_ITEMS: the caller's endpoints, 20 attempts of endpoint 7, and its sent event. */
export const stubItems = () =>
  JSON.stringify({
    endpoints: Array.from({ length: SEEDED_ENDPOINTS }, (_, i) => endpointItem(i + 1, '')),
    attempts: Array.from({ length: 20 }, (_, i) => attemptItem(i + 1)),
    event: eventItem(),
  });
