// A route is one module: `export default defineRoute({...})` in lib/routes/<name>.ts, <name> its
// function's name. `npm run openapi` writes its handler (handlers/<name>.ts) and the route list
// (lib/routes/routeList.ts) from it; infra/routeFunctions.cjs its function's environment and role;
// infra/openapi/document.ts its operation.
import type * as z from 'zod/mini';
import type { SettingsLoader } from '#lib/config/load.ts';
import { deliveryQueueSettings } from '#lib/config/queues.ts';
import { type StoreSettings, storeSettings, webhooksStoreSettings } from '#lib/config/store.ts';
import { type DynamoTarget, dynamoTargetFrom } from '#lib/dynamo/client.ts';
import type { ComposedRoute } from '#lib/http/dependencies.ts';
import {
  type Access,
  type HttpDependencies,
  httpRoute,
  type RouteRequest,
} from '#lib/http/pipeline.ts';
import type { Reply } from '#lib/http/reply.ts';
import type { RequestBody } from '#lib/http/validateInput.ts';
import {
  type Queue,
  REALM,
  type RouteEntry,
  routeKey,
  type Table,
} from '#lib/routes/routeEntry.ts';

/** The settings a route on each table or queue reads: its dependencies get a table's target. */
const SETTINGS_OF = {
  plants: storeSettings,
  webhooks: webhooksStoreSettings,
  endpointDeliveries: deliveryQueueSettings,
};
type QueueSettings = ReturnType<typeof deliveryQueueSettings>;

/** Names a route's own settings may not take: every route's, its tables' and its queues'. */
type Reserved = { [Name in 'auth' | 'telemetry' | Table | Queue]?: never };

type Loaders<Settings> = { [Name in keyof Settings]: SettingsLoader<Settings[Name]> };

export interface RouteDefinition<
  Used,
  Sends extends Queue,
  Settings,
  Dependencies,
  Body,
  Path,
  Query,
> extends Omit<RouteEntry, 'tables' | 'queues' | 'access'> {
  tables: Used;
  queues?: readonly Sends[];
  /** The schemas of what it reads of the request: path parameters, query, JSON body. */
  params?: z.ZodMiniType<Path>;
  query?: z.ZodMiniType<Query>;
  body?: RequestBody<Body>;
  /** Its settings beside every route's (lib/http/dependencies.ts), its tables' and its queues'. */
  settings?: Loaders<Settings> & Reserved;
  /** What it builds once per container of its settings, its tables' targets and its queues' settings. */
  dependencies: (
    settings: Settings & { [Name in keyof Used]: DynamoTarget } & Record<Sends, QueueSettings>,
  ) => Dependencies;
  handle: (request: RouteRequest<Body, Path, Query>, dependencies: Dependencies) => Promise<Reply>;
}

export const defineRoute = <
  Used extends RouteEntry['tables'],
  Sends extends Queue,
  Settings,
  Dependencies,
  Body,
  Path,
  Query,
>(
  definition: RouteDefinition<Used, Sends, Settings, Dependencies, Body, Path, Query>,
) => {
  const { method, params, query, body, handle } = definition;
  // the deployment's scopes are by method (AUTH_READ_SCOPE for a GET, AUTH_WRITE_SCOPE for the others)
  const access: Access = method === 'GET' ? 'read' : 'write';
  const tables = Object.keys(definition.tables) as Table[];
  const route = {
    ...definition,
    access,
    settings: {
      ...definition.settings,
      ...Object.fromEntries(
        [...tables, ...(definition.queues ?? [])].map((name) => [name, SETTINGS_OF[name]]),
      ),
    } as Record<string, SettingsLoader<unknown>>,
    dependencies: (loaded: Record<string, unknown>) => {
      const target = (table: Table) => [table, dynamoTargetFrom(loaded[table] as StoreSettings)];
      return definition.dependencies({ ...loaded, ...Object.fromEntries(tables.map(target)) });
    },
    /** Its handler over the dependencies given (tests give fakes). */
    with: (dependencies: HttpDependencies & Dependencies) =>
      httpRoute(
        dependencies,
        { name: routeKey(definition), access, realm: REALM, path: params, query, body },
        (request) => handle(request, dependencies),
      ),
  };
  return route satisfies ComposedRoute<Dependencies>;
};
