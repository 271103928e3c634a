// The API's routes, listed once: plain data importing nothing that runs, so that serverless.yml's
// functions and grants, CORS, the OpenAPI document, bench and tests read it without a route.
import type { Access } from '#lib/http/pipeline.ts';

export interface RouteEntry {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As API Gateway writes it: path parameters in braces. */
  path: string;
  access: Access;
  /** The DynamoDB actions its store operations make, by table: its role's grants and settings. */
  tables: Partial<Record<Table, readonly TableAction[]>>;
  /** The queues it sends to (SendMessage): its role's grants and settings. */
  queues?: readonly Queue[];
  /** Settings it reads beyond every route's and its tables' and queues'. */
  settings?: readonly 'endpointUrls'[];
}

/** The queues a route may send to: the deliveries to callers' own endpoints. */
export type Queue = 'endpointDeliveries';

/** The service's tables: its plants, and its callers' webhook endpoints. */
export type Table = 'plants' | 'webhooks';

/** A DynamoDB action (a Query, on a table's indexes); never a Scan. */
export type TableAction = 'PutItem' | 'GetItem' | 'Query' | 'UpdateItem' | 'DeleteItem';

/** Each route by its function's name (serverless.yml, handlers/, lib/routes/), in document order. */
export const ROUTES = {
  listPlants: { method: 'GET', path: '/plants', access: 'read', tables: { plants: ['Query'] } },
  // a conditional PutItem; a replay's existing plant comes back with the failed condition
  createPlant: {
    method: 'POST',
    path: '/plants',
    access: 'write',
    tables: { plants: ['PutItem'] },
  },
  getPlant: {
    method: 'GET',
    path: '/plants/{id}',
    access: 'read',
    tables: { plants: ['GetItem'] },
  },
  updatePlant: {
    method: 'PUT',
    path: '/plants/{id}',
    access: 'write',
    tables: { plants: ['UpdateItem'] },
  },
  patchPlant: {
    method: 'PATCH',
    path: '/plants/{id}',
    access: 'write',
    tables: { plants: ['UpdateItem'] },
  },
  deletePlant: {
    method: 'DELETE',
    path: '/plants/{id}',
    access: 'write',
    tables: { plants: ['DeleteItem'] },
  },
  // a caller's own webhook endpoints: every change a transaction with the caller's count of them
  listEndpoints: {
    method: 'GET',
    path: '/webhooks',
    access: 'read',
    tables: { webhooks: ['Query'] },
  },
  createEndpoint: {
    method: 'POST',
    path: '/webhooks',
    access: 'write',
    tables: { webhooks: ['PutItem', 'UpdateItem'] },
    // where an endpoint may point (WEBHOOK_ALLOW_PRIVATE_URLS)
    settings: ['endpointUrls'],
  },
  getEndpoint: {
    method: 'GET',
    path: '/webhooks/{id}',
    access: 'read',
    tables: { webhooks: ['GetItem'] },
  },
  updateEndpoint: {
    method: 'PUT',
    path: '/webhooks/{id}',
    access: 'write',
    tables: { webhooks: ['UpdateItem'] },
    settings: ['endpointUrls'],
  },
  deleteEndpoint: {
    method: 'DELETE',
    path: '/webhooks/{id}',
    access: 'write',
    tables: { webhooks: ['DeleteItem', 'UpdateItem'] },
  },
  rotateEndpointSecret: {
    method: 'POST',
    path: '/webhooks/{id}/secret',
    access: 'write',
    tables: { webhooks: ['GetItem', 'UpdateItem'] },
  },
  // ping and resend put a delivery on the endpoint-deliveries queue, as the stream's events do,
  // each counted in the endpoint's minute (an UpdateItem)
  pingEndpoint: {
    method: 'POST',
    path: '/webhooks/{id}/ping',
    access: 'write',
    tables: { webhooks: ['GetItem', 'UpdateItem'] },
    queues: ['endpointDeliveries'],
  },
  listEndpointAttempts: {
    method: 'GET',
    path: '/webhooks/{id}/attempts',
    access: 'read',
    tables: { webhooks: ['GetItem', 'Query'] },
  },
  resendEndpointEvent: {
    method: 'POST',
    path: '/webhooks/{id}/attempts/{webhookId}/resend',
    access: 'write',
    tables: { webhooks: ['GetItem', 'UpdateItem'] },
    queues: ['endpointDeliveries'],
  },
} as const satisfies Record<string, RouteEntry>;

export type RouteName = keyof typeof ROUTES;

export const ROUTE_NAMES = /* @__PURE__ */ Object.keys(ROUTES) as RouteName[];

/** The route as API Gateway keys it and the logs name it: "GET /plants/{id}". */
export const routeKey = ({ method, path }: RouteEntry) => `${method} ${path}`;

/** The protection space every bearer challenge names: `WWW-Authenticate: Bearer realm="plants"`. */
export const REALM = 'plants';

/** A route as the pipeline knows it: its name and access from the route list, and the realm. */
export const listedRoute = <Name extends RouteName>(name: Name) => ({
  name: routeKey(ROUTES[name]),
  access: ROUTES[name].access,
  realm: REALM,
});
