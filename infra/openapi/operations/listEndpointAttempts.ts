// GET /webhooks/{id}/attempts in the published document.
import * as z from 'zod/mini';
import { Attempt } from '#lib/endpointDeliveries/answerSchemas.ts';
import { LIST_LIMIT_MAX } from '#lib/http/paging.ts';
import { AttemptsQuery, INVALID_ATTEMPTS_CURSOR } from '#lib/routes/listEndpointAttempts.ts';
import type { OperationDescription } from '../document.ts';
import { badEndpointId } from '../endpointErrors.ts';
import { attempt } from '../examples.ts';
import { jsonSuccess, nextPageLink } from '../responses.ts';
import { refusalOf } from '../schemas.ts';

const { status: _, durationMs: __, ...unanswered } = attempt;

export const operation: OperationDescription = {
  summary: "List a webhook endpoint's delivery attempts",
  description:
    "Every delivery attempt to your endpoint in the last 14 days (each event, ping and resend, each retry), newest first, a page at a time, paged as the plant list is: when more remain, the `Link` header holds the next page's address. A query parameter the list does not know answers 400 naming it.",
  responses: {
    200: jsonSuccess(
      'A page of attempts, newest first; `[]` when there are none.',
      z.array(Attempt),
      {
        page: [
          'A retry that succeeded after a timeout',
          [
            { ...attempt, attempt: 2, at: '2026-11-25T12:00:05.000Z' },
            { ...unanswered, error: 'no answer within 5000 ms', durationMs: 5000 },
          ],
        ],
      },
      nextPageLink(
        'Present when more attempts remain: `<next page URL>; rel="next"` (RFC 8288), keeping the `limit`.',
      ),
    ),
  },
  errors: {
    400: {
      description:
        'The path id is not an endpoint id, or `limit` or `cursor` is not valid, or the query has a parameter the list does not know. The message names it and why.',
      examples: {
        ...badEndpointId.examples,
        badLimit: [
          'A limit out of range',
          refusalOf(AttemptsQuery, { limit: String(LIST_LIMIT_MAX + 1) }),
        ],
        badCursor: ['A cursor that was altered', INVALID_ATTEMPTS_CURSOR],
      },
    },
  },
};
