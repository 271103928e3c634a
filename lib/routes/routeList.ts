// The routes of the API, listed once: each one's Lambda function, and the method, path and access
// it has, and the bearer realm they share. Plain data importing nothing that runs, so that every reader can take it without taking
// any route: the route files (their name and access), the 404/405 function, the OpenAPI document,
// the bench and the bundle test. serverless.yml is checked against it (test/e2e/deployment.test.ts).
import type { Access } from '#lib/http/pipeline.ts';

export interface RouteEntry {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As API Gateway writes it: path parameters in braces. */
  path: string;
  access: Access;
}

/** Each route by its function's name (serverless.yml, handlers/, lib/routes/), in document order. */
export const ROUTES = {
  listPlants: { method: 'GET', path: '/plants', access: 'read' },
  createPlant: { method: 'POST', path: '/plants', access: 'write' },
  getPlant: { method: 'GET', path: '/plants/{id}', access: 'read' },
  updatePlant: { method: 'PUT', path: '/plants/{id}', access: 'write' },
  deletePlant: { method: 'DELETE', path: '/plants/{id}', access: 'write' },
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
