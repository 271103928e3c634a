// A route is one definition: `export default defineRoute({...})` in lib/routes/<name>.ts, <name>
// being its function's name. Its handler (handlers/<name>.ts) and the route list
// (lib/routes/routeList.ts) are written from it by `npm run openapi`; its function's environment
// and role by infra/routeFunctions.cjs; its operation by infra/openapi/document.ts.
import type { Access } from '#lib/http/pipeline.ts';
import {
  type HttpRouteDefinition,
  type HttpRouteOf,
  httpRouteOf,
  type Method,
} from '#lib/http/route.ts';

/** What the route list keeps of each route: plain data, for the functions, CORS, bench and tests. */
export interface RouteEntry {
  method: Method;
  path: string;
  access: Access;
  /** The DynamoDB actions its store operations make, by table: its role's grants. */
  tables: Partial<Record<Table, readonly TableAction[]>>;
  /** The queues it sends to (SendMessage): its role's grants. */
  queues?: readonly Queue[];
}

/** The queues a route may send to: the deliveries to callers' own endpoints. */
export type Queue = 'endpointDeliveries';

/** The service's tables: its plants, and its callers' webhook endpoints. */
export type Table = 'plants' | 'webhooks';

/** A DynamoDB action (a Query, on a table's indexes); never a Scan. */
export type TableAction = 'PutItem' | 'GetItem' | 'Query' | 'UpdateItem' | 'DeleteItem';

/** The route as API Gateway keys it and the logs name it: "GET /plants/{id}". */
export const routeKey = ({ method, path }: Pick<RouteEntry, 'method' | 'path'>) =>
  `${method} ${path}`;

/** The protection space every bearer challenge names: `WWW-Authenticate: Bearer realm="plants"`. */
export const REALM = 'plants';

export const defineRoute = <Settings, Dependencies, Body, Path, Query, A extends Access>(
  definition: HttpRouteDefinition<Settings, Dependencies, Body, Path, Query, A> &
    Omit<RouteEntry, 'access'>,
): HttpRouteOf<Settings, Dependencies, Body, Path, Query, A> & Omit<RouteEntry, 'access'> => ({
  ...definition,
  ...httpRouteOf(definition, REALM),
});
