// GET /plants in the published document.
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from '#lib/plants/listQuery.ts';
import { errorResponses, jsonSuccess, type OperationEntry, schemaRef } from '../shared.ts';

export const listPlants: OperationEntry = {
  method: 'get',
  path: '/plants',
  operation: {
    tags: ['plants'],
    operationId: 'listPlants',
    summary: "List the caller's plants",
    description:
      "Returns all plants from the system that the user has access to: the caller's own, oldest first, a page at a time. When more remain, the `Link` header holds the next page's address; the last page has none. One request reads one page.",
    parameters: [
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: `The maximum number of plants in the page, in plain decimal digits, given once. 0, a negative number, more than ${LIST_LIMIT_MAX}, a fraction or text answer 400 naming \`limit\`.`,
        schema: {
          type: 'integer',
          format: 'int32',
          minimum: 1,
          maximum: LIST_LIMIT_MAX,
          default: LIST_LIMIT_DEFAULT,
        },
        example: 20,
      },
      {
        name: 'cursor',
        in: 'query',
        required: false,
        description:
          "Where the page starts: opaque, copied from the previous page's `Link` header, never made by hand. One that is altered, cut short or another caller's answers 400 naming `cursor`.",
        schema: { type: 'string', maxLength: 200 },
      },
    ],
    responses: {
      200: jsonSuccess(
        "A page of the caller's plants, oldest first (`[]` when there are none), each with its id and `tag` only when set.",
        { type: 'array', items: schemaRef('PlantWithId') },
        {
          page: {
            summary: 'Two plants',
            value: [
              { id: 1, name: 'Monstera', tag: 'indoor' },
              { id: 2, name: 'Fern' },
            ],
          },
          empty: { summary: 'No plants yet', value: [] },
        },
        {
          Link: {
            description:
              'Present when more plants remain: `<next page URL>; rel="next"` (RFC 8288), built from the host and path of the request.',
            required: false,
            schema: { type: 'string', pattern: '^<[^>]+>; rel="next"$' },
            example:
              '<https://api.example.com/plants?limit=20&cursor=WyIyMDI2LTExLTIyVDEwOjAwOjAwLjAwMFoiLDFd.Xy3kQ9_aBc1dEf2g>; rel="next"',
          },
        },
      ),
      ...errorResponses([400, 401, 403, 500, 503], {
        400: {
          description: '`limit` or `cursor` is not valid. The message names the parameter and why.',
          examples: {
            badLimit: {
              summary: 'A limit out of range',
              message: `limit must be an integer from 1 to ${LIST_LIMIT_MAX}, given once`,
            },
            badCursor: {
              summary: 'A cursor that was altered',
              message:
                'cursor is not valid: copy it unchanged from the Link header of the previous page, as the same caller',
            },
          },
        },
      }),
    },
  },
};
