// GET /webhooks/{id}/attempts in the published document.
import { LIST_LIMIT_MAX } from '#lib/http/paging.ts';
import {
  AttemptsQuery,
  INVALID_ATTEMPTS_CURSOR,
  listEndpointAttemptsRoute,
} from '#lib/routes/listEndpointAttempts.ts';
import {
  errorResponses,
  jsonSuccess,
  type OperationDescription,
  refusalOf,
  schemaRef,
} from '../shared.ts';
import { badEndpointId, endpointNotFound, endpointsUnavailable } from './endpointErrors.ts';

export const operation: OperationDescription = {
  route: listEndpointAttemptsRoute,
  summary: "List a webhook endpoint's delivery attempts",
  description:
    "Every delivery attempt to your endpoint in the last 14 days (each event, ping and resend, each retry), newest first, a page at a time, paged as the plant list is: when more remain, the `Link` header holds the next page's address. A query parameter the list does not know answers 400 naming it.",
  responses: {
    200: jsonSuccess(
      'A page of attempts, newest first; `[]` when there are none.',
      { type: 'array', items: schemaRef('Attempt') },
      {
        page: {
          summary: 'A retry that succeeded after a timeout',
          value: [
            {
              webhookId: 'msg_p5jXN8AQM9LWM0D4loKWxJ',
              type: 'plant.added',
              attempt: 2,
              at: '2026-11-25T12:00:05.000Z',
              status: 200,
              durationMs: 84,
            },
            {
              webhookId: 'msg_p5jXN8AQM9LWM0D4loKWxJ',
              type: 'plant.added',
              attempt: 1,
              at: '2026-11-25T12:00:00.000Z',
              error: 'no answer within 5000 ms',
              durationMs: 5000,
            },
          ],
        },
      },
      {
        Link: {
          description:
            'Present when more attempts remain: `<next page URL>; rel="next"` (RFC 8288), keeping the `limit`.',
          required: false,
          schema: { type: 'string', pattern: '^<[^>]+>; rel="next"$' },
        },
      },
    ),
    ...errorResponses([400, 401, 403, 404, 500, 503], {
      400: {
        description:
          'The path id is not an endpoint id, or `limit` or `cursor` is not valid, or the query has a parameter the list does not know. The message names it and why.',
        examples: {
          ...badEndpointId.examples,
          badLimit: {
            summary: 'A limit out of range',
            message: refusalOf(AttemptsQuery, { limit: String(LIST_LIMIT_MAX + 1) }),
          },
          badCursor: { summary: 'A cursor that was altered', message: INVALID_ATTEMPTS_CURSOR },
        },
      },
      404: endpointNotFound,
      503: endpointsUnavailable,
    }),
  },
};
