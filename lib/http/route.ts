// A route as data: where it is, who may call, what it reads, what it builds once, its logic; its
// handler over given dependencies (routeHandler, lib/http/dependencies.ts, builds them).
import type * as z from 'zod/mini';
import type { SettingsLoader } from '#lib/config/load.ts';
import {
  type Access,
  type HttpDependencies,
  type HttpHandler,
  httpRoute,
  type RouteRequest,
} from '#lib/http/pipeline.ts';
import type { Reply } from '#lib/http/reply.ts';
import type { RequestBody } from '#lib/http/validateInput.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpRouteDefinition<Settings, Dependencies, Body, Path, Query, A extends Access> {
  method: Method;
  /** As API Gateway writes it: path parameters in braces. */
  path: string;
  access: A;
  /** The schemas of what it reads of the request: path parameters, query, JSON body. */
  params?: z.ZodMiniType<Path>;
  query?: z.ZodMiniType<Query>;
  body?: RequestBody<Body>;
  /** Its settings beside every route's (httpSettings), each its loader. */
  settings: { [Name in keyof Settings]: SettingsLoader<Settings[Name]> };
  /** What it builds once per container from its settings: its stores, its queue. */
  dependencies: (settings: Settings) => Dependencies;
  handle: (
    request: RouteRequest<Body, Path, Query, A>,
    dependencies: Dependencies,
  ) => Promise<Reply>;
}

export interface HttpRouteOf<Settings, Dependencies, Body, Path, Query, A extends Access>
  extends HttpRouteDefinition<Settings, Dependencies, Body, Path, Query, A> {
  /** Its handler over the dependencies given (tests give fakes). */
  with: (dependencies: HttpDependencies & Dependencies) => HttpHandler;
}

/** The definition, and its handler over given dependencies; `realm` names the bearer challenge's space. */
export const httpRouteOf = <Settings, Dependencies, Body, Path, Query, A extends Access>(
  definition: HttpRouteDefinition<Settings, Dependencies, Body, Path, Query, A>,
  realm: string,
): HttpRouteOf<Settings, Dependencies, Body, Path, Query, A> => {
  const { method, path, access, params, query, body, handle } = definition;
  const schemas = {
    ...(params && { path: params }),
    ...(query && { query }),
    ...(body && { body }),
  };
  return {
    ...definition,
    with: (dependencies) =>
      httpRoute(dependencies, { name: `${method} ${path}`, access, realm, ...schemas }, (request) =>
        handle(request, dependencies),
      ),
  };
};
