// GET /webhooks/{id}/attempts: the last 14 days' attempts, newest first, paged as plants are;
// the cursor is sealed to the endpoint, so one edited or from another endpoint's list is a 400.
import { dynamoListAttempts } from '#lib/endpointDeliveries/dynamoStore.ts';
import { dynamoGetEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { ATTEMPT_SORT_KEY, deliveriesPartition } from '#lib/endpoints/keys.ts';
import { EndpointPath } from '#lib/endpoints/requestSchemas.ts';
import {
  nextPageLink,
  openCursor,
  pageCursor,
  pageLimit,
  sealCursor,
  strictQuery,
} from '#lib/http/paging.ts';
import { endpointsUnavailable, ownedEndpoint } from '#lib/routes/endpointReplies.ts';
import { defineRoute } from '#lib/routes/route.ts';

export const AttemptsQuery = strictQuery('the list of attempts', {
  limit: pageLimit('attempts'),
  cursor: pageCursor("or from another endpoint's list"),
});

export const INVALID_ATTEMPTS_CURSOR =
  "cursor is not valid: copy it unchanged from the Link header of the previous page of this endpoint's attempts";

export default defineRoute({
  method: 'GET',
  path: '/webhooks/{id}/attempts',
  tables: { webhooks: ['GetItem', 'Query'] },
  params: EndpointPath,
  query: AttemptsQuery,
  dependencies: ({ webhooks }) => ({
    endpointStore: { get: dynamoGetEndpoint(webhooks) },
    attemptStore: { list: dynamoListAttempts(webhooks) },
  }),
  handle: async (
    { path: { id }, query: { limit, cursor }, caller, url, signal },
    { endpointStore, attemptStore },
  ) => {
    const list = deliveriesPartition(id);
    // null: not a cursor of this list; its check is no secret, so what DynamoDB would refuse as a
    // start key is refused here
    const after = cursor === undefined ? undefined : (openCursor(cursor, list) ?? null);
    if (after !== undefined && (typeof after !== 'string' || !ATTEMPT_SORT_KEY.test(after)))
      return { status: 400, message: INVALID_ATTEMPTS_CURSOR, metric: 'ValidationFailures' };
    // both reads at once; another caller's attempts are never answered (the ownership's 404 first)
    const [owned, result] = await Promise.all([
      ownedEndpoint(endpointStore, caller.sub, id, signal),
      attemptStore.list(id, { limit, after }, { signal }),
    ]);
    if ('refusal' in owned) return owned.refusal;
    if (result.outcome === 'unavailable')
      return endpointsUnavailable(result.cause, { endpointId: id });
    return {
      status: 200,
      body: result.attempts,
      headers: result.next
        ? nextPageLink(url, { limit: String(limit), cursor: sealCursor(result.next, list) })
        : {},
      metric: 'EndpointAttemptsListed',
      outcome: 'listed',
      log: { endpointId: id, count: result.attempts.length, more: result.next !== undefined },
    };
  },
});
