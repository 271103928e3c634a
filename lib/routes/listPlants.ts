// GET /plants: the caller's plants (or those with one tag), oldest first, a page at a time. When
// more remain, the Link header carries the next page's address (RFC 8288), with the same limit and
// tag; the last page has none.
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { decodeCursor, encodeCursor, ListQuery } from '#lib/plants/listQuery.ts';
import type { PlantStore } from '#lib/plants/store.ts';
import { toIdentifiedPlant } from '#lib/plants/views.ts';
import { storeUnavailable } from '#lib/routes/plantReplies.ts';
import { listedRoute } from '#lib/routes/routeList.ts';

export interface ListPlantsDependencies extends HttpDependencies {
  plantStore: Pick<PlantStore, 'list'>;
}

/** What the pipeline checks of the request, and the document describes. */
export const listPlantsRoute = { ...listedRoute('listPlants'), query: ListQuery };

export const INVALID_CURSOR =
  'cursor is not valid: copy it unchanged from the Link header of the previous page, as the same caller, with the same tag';

export const listPlantsHandler = ({ plantStore, ...http }: ListPlantsDependencies) =>
  httpRoute(
    http,
    listPlantsRoute,
    async ({ query: { limit, tag, cursor }, caller, url, signal }) => {
      const list = { owner: caller.sub, tag };
      const after = cursor === undefined ? undefined : decodeCursor(cursor, list);
      if (cursor !== undefined && !after) {
        return {
          status: 400,
          message: INVALID_CURSOR,
          metric: 'ValidationFailures',
        };
      }
      const result = await plantStore.list(caller.sub, { limit, after, tag }, { signal });
      if (result.outcome === 'unavailable') return storeUnavailable(result.cause);
      const headers: Record<string, string> = {};
      if (result.next) {
        const next = new URL(url);
        next.search = '';
        next.searchParams.set('limit', String(limit));
        if (tag !== undefined) next.searchParams.set('tag', tag);
        next.searchParams.set('cursor', encodeCursor(result.next, list));
        headers.Link = `<${next.href}>; rel="next"`;
      }
      return {
        status: 200,
        body: result.plants.map(toIdentifiedPlant),
        headers,
        metric: 'PlantsListed',
        outcome: 'listed',
        log: { count: result.plants.length, more: result.next !== undefined },
      };
    },
  );
