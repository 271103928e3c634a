// What the route list keeps of a route (lib/routes/route.ts): plain data, importing nothing that
// runs, so that the 404/405 function's bundle holds no route's code.
import type { Access } from '#lib/http/pipeline.ts';

/** What the route list keeps of a route: plain data, for the functions, CORS, bench and tests. */
export interface RouteEntry {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As API Gateway writes it: path parameters in braces. */
  path: string;
  access: Access;
  /** The DynamoDB actions its store operations make, by table: its role's grants, its settings. */
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
