// The routes of a caller's webhook endpoints in the published document, each by its function's
// name: its words, its successes and its own errors (endpointErrors.ts: those they share).
import * as z from 'zod/mini';
import { Attempt } from '#lib/endpointDeliveries/answerSchemas.ts';
import { PING } from '#lib/endpointDeliveries/store.ts';
import { Endpoint, EndpointSecret, EndpointWithSecret } from '#lib/endpoints/answerSchemas.ts';
import { EventPath } from '#lib/endpoints/requestSchemas.ts';
import { MAX_ENDPOINTS_PER_CALLER } from '#lib/endpoints/store.ts';
import { LIST_LIMIT_MAX } from '#lib/http/paging.ts';
import { ENDPOINT_LIMIT_MESSAGE } from '#lib/routes/createEndpoint.ts';
import { AttemptsQuery, INVALID_ATTEMPTS_CURSOR } from '#lib/routes/listEndpointAttempts.ts';
import { endpointDisabledMessage, eventNotFoundMessage } from '#lib/routes/resendEndpointEvent.ts';
import { OLD_SECRET_SIGNS_MS } from '#lib/routes/rotateEndpointSecret.ts';
import type { OperationDescription } from '../document.ts';
import {
  badEndpointId,
  deliveryQueued,
  endpointNotFound,
  sendsLimited,
} from '../endpointErrors.ts';
import { allEvents, attempt, endpoint, secret, webhookId } from '../examples.ts';
import { commonHeaders, header, jsonSuccess, nextPageLink } from '../responses.ts';
import { refusalOf } from '../schemas.ts';

export { endpointErrors as errors } from '../endpointErrors.ts';
export const tag = 'Your own webhook endpoints, and what the service POSTs to a receiver of yours';

const { createdAt, ...registered } = endpoint;
const { status: _, durationMs: __, ...unanswered } = attempt;

export const operations = {
  createEndpoint: {
    summary: 'Register a webhook endpoint',
    description:
      "Registers a receiver of yours, to be told of your own plants only: each event of its `events` (every type when left out), signed with its secret as Standard Webhooks says. The answer is the only one that holds the secret, but a rotation's: keep it. At most " +
      `${MAX_ENDPOINTS_PER_CALLER} endpoints per caller.`,
    requestBody: {
      description: 'Where to deliver, and which events.',
      examples: {
        everything: ['Every event type', { url: endpoint.url }],
        added: [
          'New plants only, with a description',
          { url: endpoint.url, events: ['plant.added'], description: 'Our shop' },
        ],
      },
    },
    responses: {
      201: jsonSuccess(
        'Registered: the endpoint, with its secret (shown here and at rotation only).',
        EndpointWithSecret,
        { registered: ['A new endpoint', { ...allEvents, secret }] },
        {
          Location: header(
            "The endpoint's address: `/webhooks/{id}`.",
            { type: 'string', format: 'uri' },
            `https://api.example.com/webhooks/${endpoint.id}`,
          ),
        },
      ),
      409: {
        description: `You have ${MAX_ENDPOINTS_PER_CALLER} endpoints already, the most a caller may have: delete one first.`,
        examples: { limit: ['An 11th endpoint', ENDPOINT_LIMIT_MESSAGE] },
      },
    },
  },
  deleteEndpoint: {
    summary: 'Delete a webhook endpoint',
    description:
      'Removes one of your webhook endpoints: nothing more is sent to it. A retry after a success answers 404.',
    responses: { 204: { description: 'Endpoint deleted', headers: commonHeaders } },
  },
  getEndpoint: {
    summary: 'Read a webhook endpoint',
    description: 'One of your webhook endpoints, without its secret.',
    responses: {
      200: jsonSuccess('The endpoint.', Endpoint, {
        endpoint: [
          'An endpoint the service disabled',
          { ...registered, disabled: true, disabledReason: 'answered 410 Gone', createdAt },
        ],
      }),
    },
  },
  listEndpointAttempts: {
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
  },
  listEndpoints: {
    summary: 'List your webhook endpoints',
    description:
      'Your webhook endpoints, oldest first: at most 10, so one page. No secret is shown.',
    responses: {
      200: jsonSuccess('Your endpoints; `[]` when you have none.', z.array(Endpoint), {
        endpoints: ['One endpoint', [endpoint]],
      }),
    },
  },
  pingEndpoint: {
    summary: 'Ping a webhook endpoint',
    description: `Sends your endpoint a \`${PING}\` event now (\`data\`: \`{"endpointId"}\`), signed and retried as any other delivery, and listed in its attempts. A disabled endpoint is pinged too, so you can test it before enabling it again. \`${PING}\` is no type of \`events\`. No body (one sent is ignored).`,
    responses: {
      202: deliveryQueued('The ping is on its way: its webhook-id, as its attempts will carry it.'),
      429: sendsLimited,
    },
  },
  resendEndpointEvent: {
    summary: 'Resend an event to a webhook endpoint',
    description:
      'Delivers again now an event your endpoint was sent in the last 14 days, with the same `webhook-id` and body (signed afresh), so a receiver that deduplicates by `webhook-id` takes it once. Its attempts start again at 1. A disabled endpoint is refused: enable it first. No body (one sent is ignored).',
    responses: {
      202: deliveryQueued('The event is on its way again: its webhook-id.'),
      400: {
        description: 'The path id is not an endpoint id, or the webhookId is not a webhook-id.',
        examples: {
          ...badEndpointId.examples,
          badWebhookId: [
            'A webhookId that is none',
            refusalOf(EventPath, { id: endpoint.id, webhookId: 'evt_1' }),
          ],
        },
      },
      404: {
        description: `${endpointNotFound.description} Or no event with this webhook-id was sent to it in the last 14 days.`,
        examples: {
          ...endpointNotFound.examples,
          eventNotFound: ['No such event in the last 14 days', eventNotFoundMessage(webhookId)],
        },
      },
      409: {
        description:
          'The endpoint is disabled, and nothing is delivered to a disabled endpoint: enable it with `PUT` first (a ping reaches it while disabled).',
        examples: { disabled: ['A disabled endpoint', endpointDisabledMessage(endpoint.id)] },
      },
      429: sendsLimited,
    },
  },
  rotateEndpointSecret: {
    summary: "Rotate a webhook endpoint's secret",
    description: `Makes a new signing secret, answered here only. For ${OLD_SECRET_SIGNS_MS / 3_600_000} hours the one it replaces signs beside it (each delivery carries two \`v1,\` signatures), so your receiver can switch without missing a delivery. No body (one sent is ignored).`,
    responses: {
      200: jsonSuccess('The new secret.', EndpointSecret, {
        rotated: ['A new secret', { secret }],
      }),
    },
  },
  updateEndpoint: {
    summary: 'Replace a webhook endpoint',
    description:
      "Replaces the endpoint's `url`, `events`, `description` and `disabled`; each left out takes its default (every event type, no description, enabled), so a PUT enables an endpoint the service disabled unless it sends `disabled: true`. Its secret stays.",
    requestBody: {
      description: 'The new settings.',
      examples: {
        enable: ['Enabled again, every event', { url: endpoint.url }],
        pause: ['Paused by hand', { url: endpoint.url, disabled: true }],
      },
    },
    responses: {
      200: jsonSuccess('The endpoint as replaced.', Endpoint, {
        replaced: ['Enabled again', allEvents],
      }),
    },
  },
} satisfies Record<string, OperationDescription>;
