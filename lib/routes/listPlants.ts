// GET /plants: the caller's plants (or one tag's), oldest first, paged by a Link header (RFC 8288).
import { nextPageLink } from '#lib/http/paging.ts';
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { decodeCursor, encodeCursor, ListQuery } from '#lib/plants/listQuery.ts';
import type { PlantStore } from '#lib/plants/store.ts';
import { toIdentifiedPlant } from '#lib/plants/views.ts';
import { storeUnavailable } from '#lib/routes/plantReplies.ts';
import { listedRoute } from '#lib/routes/routeList.ts';

export const listPlantsRoute = { ...listedRoute('listPlants'), query: ListQuery };

export const INVALID_CURSOR =
  'cursor is not valid: copy it unchanged from the Link header of the previous page, as the same caller, with the same tag';

export const listPlantsHandler = ({
  plantStore,
  ...http
}: HttpDependencies & { plantStore: Pick<PlantStore, 'list'> }) =>
  httpRoute(
    http,
    listPlantsRoute,
    async ({ query: { limit, tag, cursor }, caller, url, signal }) => {
      const list = { owner: caller.sub, tag };
      const after = cursor === undefined ? undefined : decodeCursor(cursor, list);
      if (cursor !== undefined && !after) {
        return { status: 400, message: INVALID_CURSOR, metric: 'ValidationFailures' };
      }
      const result = await plantStore.list(caller.sub, { limit, after, tag }, { signal });
      if (result.outcome === 'unavailable') return storeUnavailable(result.cause);
      return {
        status: 200,
        body: result.plants.map(toIdentifiedPlant),
        headers: result.next
          ? nextPageLink(url, {
              limit: String(limit),
              tag,
              cursor: encodeCursor(result.next, list),
            })
          : {},
        metric: 'PlantsListed',
        outcome: 'listed',
        log: { count: result.plants.length, more: result.next !== undefined },
      };
    },
  );
