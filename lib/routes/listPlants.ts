// GET /plants: the caller's plants (or one tag's), oldest first, paged by a Link header (RFC 8288).
import { nextPageLink } from '#lib/http/paging.ts';
import { dynamoList } from '#lib/plants/dynamoStore.ts';
import { decodeCursor, encodeCursor, ListQuery } from '#lib/plants/listQuery.ts';
import { toIdentifiedPlant } from '#lib/plants/views.ts';
import { storeUnavailable } from '#lib/routes/plantReplies.ts';
import { defineRoute } from '#lib/routes/route.ts';

export const INVALID_CURSOR =
  'cursor is not valid: copy it unchanged from the Link header of the previous page, as the same caller, with the same tag';

export default defineRoute({
  method: 'GET',
  path: '/plants',
  tables: { plants: ['Query'] },
  query: ListQuery,
  dependencies: ({ plants }) => ({ plantStore: { list: dynamoList(plants) } }),
  handle: async ({ query: { limit, tag, cursor }, caller, url, signal }, { plantStore }) => {
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
        ? nextPageLink(url, { limit: String(limit), tag, cursor: encodeCursor(result.next, list) })
        : {},
      metric: 'PlantsListed',
      outcome: 'listed',
      log: { count: result.plants.length, more: result.next !== undefined },
    };
  },
});
