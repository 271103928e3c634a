// POST /webhooks/{id}/attempts/{webhookId}/resend in the published document.

import { EventPath } from '#lib/endpoints/requestSchemas.ts';
import {
  endpointDisabledMessage,
  eventNotFoundMessage,
  resendEndpointEventRoute,
} from '#lib/routes/resendEndpointEvent.ts';
import { errorResponses, type OperationDescription, refusalOf } from '../shared.ts';
import {
  badEndpointId,
  deliveriesUnavailable,
  deliveryQueued,
  endpointNotFound,
  sendsLimited,
} from './endpointErrors.ts';

const EXAMPLE_ID = 'ep_2Un7Klsvqo_UuPRYKPuHxM';

export const operation: OperationDescription = {
  route: resendEndpointEventRoute,
  summary: 'Resend an event to a webhook endpoint',
  description:
    'Delivers again now an event your endpoint was sent in the last 14 days, with the same `webhook-id` and body (signed afresh), so a receiver that deduplicates by `webhook-id` takes it once. Its attempts start again at 1. A disabled endpoint is refused: enable it first. No body (one sent is ignored).',
  responses: {
    202: deliveryQueued('The event is on its way again: its webhook-id.'),
    ...errorResponses([400, 401, 403, 404, 409, 429, 500, 503], {
      400: {
        description: 'The path id is not an endpoint id, or the webhookId is not a webhook-id.',
        examples: {
          ...badEndpointId.examples,
          badWebhookId: {
            summary: 'A webhookId that is none',
            message: refusalOf(EventPath, { id: EXAMPLE_ID, webhookId: 'evt_1' }),
          },
        },
      },
      404: {
        description: `${endpointNotFound.description} Or no event with this webhook-id was sent to it in the last 14 days.`,
        examples: {
          ...endpointNotFound.examples,
          eventNotFound: {
            summary: 'No such event in the last 14 days',
            message: eventNotFoundMessage('msg_p5jXN8AQM9LWM0D4loKWxJ'),
          },
        },
      },
      409: {
        description:
          'The endpoint is disabled, and nothing is delivered to a disabled endpoint: enable it with `PUT` first (a ping reaches it while disabled).',
        examples: {
          disabled: {
            summary: 'A disabled endpoint',
            message: endpointDisabledMessage(EXAMPLE_ID),
          },
        },
      },
      429: sendsLimited,
      503: deliveriesUnavailable,
    }),
  },
};
