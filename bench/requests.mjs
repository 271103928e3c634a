// The bench's one caller, its plant and endpoints, and what the bench sends each route of the route
// list besides its method and path (path parameters, query, body), each answered 2xx by the
// function and its floor (bench/baseline/<route>.ts); a route without one is not measured, and the
// report names it. Plain JavaScript: the probe loads no TypeScript.

/** The one caller: the subject of every token and the owner of every plant. */
export const CALLER = 'bench';

/**
 * The name of the large plant (the `<function>:large` kinds): 32,600 `"`, the worst case for
 * escaping, so that its body (65 KB) is near the 64 KiB limit and a delivery message of it, escaped
 * twice, about 130 KB.
 */
export const LARGE_NAME = '"'.repeat(32_600);

/** Plant `id` as DynamoDB stores it, created at a millisecond of its own (the list sorts by it). */
export const plantItem = (id, name = 'Monstera') => ({
  id: { N: String(id) },
  name: { S: name },
  tag: { S: 'indoor' },
  createdAt: { S: new Date(Date.UTC(2026, 10, 22, 10, 0, 0, id % 1000)).toISOString() },
  createdBy: { S: CALLER },
  version: { N: '1' },
});

/** The endpoints the caller has from the start: the most a caller may (MAX_ENDPOINTS_PER_CALLER). */
export const SEEDED_ENDPOINTS = 10;
/** Where the endpoints the bench registers point: an address, so that registering one resolves no name. */
export const ENDPOINT_URL = 'https://127.0.0.1/hooks';
/** The id of the bench's endpoint `n`: ep_ and 22 characters, as the routes' path requires. */
export const endpointId = (n) => `ep_bench${String(n).padStart(17, '0')}`;
/** The event the caller's endpoint 7 was sent: its attempts list, a resend sends it again. */
export const SENT_WEBHOOK_ID = 'msg_bench00000000000000007';

/**
 * Each route's request, given the number of the plant or endpoint the invocation may create, delete,
 * rotate, ping or resend to (bench/seed.ts stores those a run deletes, rotates, pings or resends to;
 * a rotation adds a secret to the endpoint, so each is of an endpoint of its own).
 */
export const requests = {
  listPlants: () => ({ query: 'limit=20' }),
  createPlant: (id) => ({ body: { id, name: 'Monstera', tag: 'indoor' } }),
  getPlant: () => ({ path: { id: '7' } }),
  updatePlant: () => ({ path: { id: '7' }, body: { name: 'Monstera deliciosa' } }),
  patchPlant: () => ({ path: { id: '7' }, body: { tag: 'outdoor' } }),
  deletePlant: (id) => ({ path: { id: String(id) } }),
  listEndpoints: () => ({}),
  createEndpoint: () => ({ body: { url: ENDPOINT_URL, events: ['plant.added'] } }),
  getEndpoint: () => ({ path: { id: endpointId(7) } }),
  updateEndpoint: () => ({
    path: { id: endpointId(7) },
    body: { url: ENDPOINT_URL, events: ['plant.added', 'plant.deleted'], description: 'Our shop' },
  }),
  deleteEndpoint: (id) => ({ path: { id: endpointId(id) } }),
  rotateEndpointSecret: (id) => ({ path: { id: endpointId(id) } }),
  // each ping and resend of an endpoint of its own: an endpoint takes 10 of them a minute
  pingEndpoint: (id) => ({ path: { id: endpointId(id) } }),
  listEndpointAttempts: () => ({ path: { id: endpointId(7) }, query: 'limit=20' }),
  resendEndpointEvent: (id) => ({ path: { id: endpointId(id), webhookId: SENT_WEBHOOK_ID } }),
};
