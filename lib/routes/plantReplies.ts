// The replies more than one plant route gives: a plant with its ETag, an outage, a plant not there.
import type { NotFound, Unavailable } from '#lib/dynamo/results.ts';
import { strongEtag } from '#lib/http/conditional.ts';
import { notFound, type SuccessReply, storeOutage } from '#lib/http/reply.ts';
import type { StoredPlant } from '#lib/plants/store.ts';
import { toIdentifiedPlant } from '#lib/plants/views.ts';
import type { MetricName } from '#lib/telemetry.ts';

/** A plant answered with its id, and its version as the ETag for a later If-Match. */
export const plantWithEtag = (
  plant: StoredPlant,
  { metric, outcome }: { metric: MetricName; outcome: string },
): SuccessReply => ({
  status: 200,
  body: toIdentifiedPlant(plant),
  headers: { ETag: strongEtag(plant.version) },
  metric,
  outcome,
  log: { plantId: plant.id, version: plant.version },
});

export const STORE_UNAVAILABLE = 'The plant store is busy or unreachable: retry in a few seconds';

export const storeUnavailable = storeOutage(STORE_UNAVAILABLE);

export const plantNotFoundMessage = (id: number) =>
  `No plant with id ${id}: it does not exist, or it is not yours`;

/** The reply when the store has no plant `id` of the caller's (nor another's), or is out. */
export const plantRefusal = (id: number, result: NotFound | Unavailable) =>
  result.outcome === 'notFound'
    ? notFound(plantNotFoundMessage(id), 'PlantsNotFound', { plantId: id, detail: result.reason })
    : storeUnavailable(result.cause, { plantId: id });
