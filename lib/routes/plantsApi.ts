// What the routes of the plants API share: the bearer realm, their names and access from the route
// list, and the replies that more than one route gives.
import { strongEtag } from '#lib/http/conditional.ts';
import { type ErrorReply, type SuccessReply, unavailable } from '#lib/http/reply.ts';
import type { NotFound, StoredPlant } from '#lib/plants/store.ts';
import { toIdentifiedPlant } from '#lib/plants/views.ts';
import { ROUTES, type RouteName, routeKey } from '#lib/routes/routeList.ts';
import type { MetricName } from '#lib/telemetry.ts';

/** The protection space every bearer challenge names: `WWW-Authenticate: Bearer realm="plants"`. */
export const REALM = 'plants';

/** A route as the pipeline knows it: its name and access from the route list, and the realm. */
export const plantRoute = <Name extends RouteName>(name: Name) => ({
  name: routeKey(ROUTES[name]),
  access: ROUTES[name].access,
  realm: REALM,
});

/** A plant's ETag: its version. */
export const etagOf = (version: number) => strongEtag(version);

/** A plant answered with its id, and its version as the ETag for a later If-Match. */
export const plantWithEtag = (
  plant: StoredPlant,
  { metric, outcome }: { metric: MetricName; outcome: string },
): SuccessReply => ({
  status: 200,
  body: toIdentifiedPlant(plant),
  headers: { ETag: etagOf(plant.version) },
  metric,
  outcome,
  log: { plantId: plant.id, version: plant.version },
});

export const STORE_UNAVAILABLE = 'The plant store is busy or unreachable: retry in a few seconds';

export const storeUnavailable = (cause: unknown, log?: Record<string, unknown>): ErrorReply =>
  unavailable(STORE_UNAVAILABLE, {
    metric: 'StoreUnavailable',
    outcome: 'unavailable',
    cause,
    ...(log ? { log } : {}),
  });

export const plantNotFoundMessage = (id: number) =>
  `No plant with id ${id}: it does not exist, or it is not yours`;

/** Missing and another caller's answer alike; only the log tells them apart. */
export const plantNotFound = (id: number, { reason }: NotFound): ErrorReply => ({
  status: 404,
  message: plantNotFoundMessage(id),
  metric: 'PlantsNotFound',
  outcome: 'notFound',
  log: { plantId: id, detail: reason },
});
