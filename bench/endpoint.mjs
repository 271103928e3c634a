// The bench caller's webhook endpoints by number: their ids, where they point, the event one was
// sent (their items, keyed as the store keys them: bench/endpointItems.ts). Plain JavaScript, so
// that a probe loads no TypeScript.

/** The endpoints the caller has from the start: the most a caller may (MAX_ENDPOINTS_PER_CALLER). */
export const SEEDED_ENDPOINTS = 10;

/** Where the endpoints the bench registers point: an address, so that registering one resolves no name. */
export const ENDPOINT_URL = 'https://127.0.0.1/hooks';

/** The id of the bench's endpoint `n`: ep_ and 22 characters, as the routes' path requires. */
export const endpointId = (n) => `ep_bench${String(n).padStart(17, '0')}`;

/** The event the caller's endpoint 7 was sent: its attempts list, a resend sends it again. */
export const SENT_WEBHOOK_ID = 'msg_bench00000000000000007';
