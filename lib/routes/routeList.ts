// The routes of the API, listed once: each one's Lambda function, and the method, path, access and
// table actions it has, and the bearer realm they share. Plain data importing nothing that runs, so
// that every reader can take it without taking any route: the route files (their name and access),
// the 404/405 function, serverless.yml's functions (infra/routeFunctions.cjs: handler, event,
// grants), CORS's methods, the OpenAPI document, the bench and the bundle test.
import type { Access } from '#lib/http/pipeline.ts';

export interface RouteEntry {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As API Gateway writes it: path parameters in braces. */
  path: string;
  access: Access;
  /** The DynamoDB actions its store operation makes on the plants table: its role's grants. */
  tableActions: readonly TableAction[];
}

/** A DynamoDB action on the plants table (a Query, on its indexes); never a Scan. */
export type TableAction = 'PutItem' | 'GetItem' | 'Query' | 'UpdateItem' | 'DeleteItem';

/** Each route by its function's name (serverless.yml, handlers/, lib/routes/), in document order. */
export const ROUTES = {
  listPlants: { method: 'GET', path: '/plants', access: 'read', tableActions: ['Query'] },
  // a conditional PutItem; a replay's existing plant comes back with the failed condition
  createPlant: { method: 'POST', path: '/plants', access: 'write', tableActions: ['PutItem'] },
  getPlant: { method: 'GET', path: '/plants/{id}', access: 'read', tableActions: ['GetItem'] },
  updatePlant: {
    method: 'PUT',
    path: '/plants/{id}',
    access: 'write',
    tableActions: ['UpdateItem'],
  },
  patchPlant: {
    method: 'PATCH',
    path: '/plants/{id}',
    access: 'write',
    tableActions: ['UpdateItem'],
  },
  deletePlant: {
    method: 'DELETE',
    path: '/plants/{id}',
    access: 'write',
    tableActions: ['DeleteItem'],
  },
} as const satisfies Record<string, RouteEntry>;

export type RouteName = keyof typeof ROUTES;

export const ROUTE_NAMES = /* @__PURE__ */ Object.keys(ROUTES) as RouteName[];

/** The route as API Gateway keys it and the logs name it: "GET /plants/{id}". */
export const routeKey = ({ method, path }: RouteEntry) => `${method} ${path}`;

/** The protection space every bearer challenge names: `WWW-Authenticate: Bearer realm="plants"`. */
export const REALM = 'plants';

/** A route as the pipeline knows it: its name and access from the route list, and the realm. */
export const plantRoute = <Name extends RouteName>(name: Name) => ({
  name: routeKey(ROUTES[name]),
  access: ROUTES[name].access,
  realm: REALM,
});
