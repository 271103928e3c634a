// What the bench sends each route of the route list (lib/routes/routeList.ts) besides its method and
// path: path parameters, query, body; each answered 2xx by the function and its floor
// (bench/baseline/<route>.ts). A route without one fails npm test (test/unit/routeList.test.ts).
// Plain JavaScript: the probe loads no TypeScript.

/** Each route's request, given the plant id the invocation may create or delete. */
export const requests = {
  listPlants: () => ({ query: 'limit=20' }),
  createPlant: (id) => ({ body: { id, name: 'Monstera', tag: 'indoor' } }),
  getPlant: () => ({ path: { id: '7' } }),
  updatePlant: () => ({ path: { id: '7' }, body: { name: 'Monstera deliciosa' } }),
  patchPlant: () => ({ path: { id: '7' }, body: { tag: 'outdoor' } }),
  deletePlant: (id) => ({ path: { id: String(id) } }),
};
