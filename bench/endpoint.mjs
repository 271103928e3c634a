// The bench caller's webhook endpoints as DynamoDB stores them (their keys are the store's own,
// lib/webhooks/endpointKeys.mjs): seeded into DynamoDB Local by bench/seed.ts, answered by
// bench/probe.mjs's stubs, keyed so by the floors. Plain JavaScript, so that a probe loads no
// TypeScript.
import { endpointKey } from '../lib/webhooks/endpointKeys.mjs';
import { CALLER } from './plant.mjs';

export {
  callerPartition,
  countKey,
  ENDPOINT_PREFIX,
  endpointKey,
} from '../lib/webhooks/endpointKeys.mjs';

/** The endpoints the caller has from the start: the most a caller may (MAX_ENDPOINTS_PER_CALLER). */
export const SEEDED_ENDPOINTS = 10;

/** Where the bench's endpoints point: an address, so that registering one resolves no name. */
export const ENDPOINT_URL = 'https://127.0.0.1/hooks';

/** The id of the bench's endpoint `n`: ep_ and 22 characters, as the routes' path requires. */
export const endpointId = (n) => `ep_bench${String(n).padStart(17, '0')}`;

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/** The caller's endpoint `n`, created at a millisecond of its own (the list sorts by it). */
export const endpointItem = (n) => {
  const { pk, sk } = endpointKey(CALLER, endpointId(n));
  return {
    pk: { S: pk },
    sk: { S: sk },
    url: { S: ENDPOINT_URL },
    events: { L: [{ S: 'plant.added' }] },
    disabled: { BOOL: false },
    createdAt: { S: new Date(Date.UTC(2026, 10, 22, 10, 0, 0, n % 1000)).toISOString() },
    secrets: { L: [{ M: { secret: { S: SECRET } } }] },
  };
};
