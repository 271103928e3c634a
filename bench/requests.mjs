// What the bench sends each route of the route list (lib/routes/routeList.ts) besides its method and
// path: path parameters, query, body; each answered 2xx by the function and its floor
// (bench/baseline/<route>.ts). A route without one is not measured: the bench's report names it.
// Plain JavaScript: the probe loads no TypeScript.
import { ENDPOINT_URL, endpointId, SENT_WEBHOOK_ID } from './endpoint.mjs';

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
