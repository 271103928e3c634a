// GET /plants in the published document.
import * as z from 'zod/mini';
import { LIST_LIMIT_MAX } from '#lib/http/paging.ts';
import { ListQuery } from '#lib/plants/listQuery.ts';
import { IdentifiedPlant } from '#lib/plants/schemas.ts';
import { INVALID_CURSOR } from '#lib/routes/listPlants.ts';
import type { OperationDescription } from '../document.ts';
import { fern, monstera } from '../examples.ts';
import { jsonSuccess, nextPageLink } from '../responses.ts';
import { refusalOf } from '../schemas.ts';

export const operation: OperationDescription = {
  summary: "List the caller's plants",
  description:
    "Returns all plants from the system that the user has access to: the caller's own, oldest first, a page at a time; with `tag`, only those with exactly that tag. When more remain, the `Link` header holds the next page's address (with the same `limit` and `tag`); the last page has none. One request reads one page. A query parameter the list does not know answers 400 naming it, never ignored.",
  responses: {
    200: jsonSuccess(
      "A page of the caller's plants, oldest first (`[]` when there are none), each with its id, and an optional field only when set.",
      z.array(IdentifiedPlant),
      {
        page: ['Two plants', [monstera, fern]],
        empty: ['No plants yet', []],
      },
      nextPageLink(
        'Present when more plants remain: `<next page URL>; rel="next"` (RFC 8288), built from the host and path of the request, keeping its `limit` and `tag`.',
        '<https://api.example.com/plants?limit=20&cursor=WyIyMDI2LTExLTIyVDEwOjAwOjAwLjAwMFoiLDFd.Xy3kQ9_aBc1dEf2g>; rel="next"',
      ),
    ),
  },
  errors: {
    400: {
      description:
        '`limit`, `tag` or `cursor` is not valid, or the query has a parameter the list does not know. The message names the parameter and why.',
      examples: {
        badLimit: [
          'A limit out of range',
          refusalOf(ListQuery, { limit: String(LIST_LIMIT_MAX + 1) }),
        ],
        emptyTag: ['An empty tag', refusalOf(ListQuery, { tag: '' })],
        unknownParameter: [
          'A parameter the list does not know',
          refusalOf(ListQuery, { type: 'indoor' }),
        ],
        badCursor: ['A cursor that was altered', INVALID_CURSOR],
      },
    },
  },
};
