// POST /webhooks/{id}/attempts/{webhookId}/resend in the published document.
import { EventPath } from '#lib/endpoints/requestSchemas.ts';
import { endpointDisabledMessage, eventNotFoundMessage } from '#lib/routes/resendEndpointEvent.ts';
import type { OperationDescription } from '../document.ts';
import {
  badEndpointId,
  deliveryQueued,
  endpointNotFound,
  sendsLimited,
} from '../endpointErrors.ts';
import { endpoint, webhookId } from '../examples.ts';
import { refusalOf } from '../schemas.ts';

export const operation: OperationDescription = {
  summary: 'Resend an event to a webhook endpoint',
  description:
    'Delivers again now an event your endpoint was sent in the last 14 days, with the same `webhook-id` and body (signed afresh), so a receiver that deduplicates by `webhook-id` takes it once. Its attempts start again at 1. A disabled endpoint is refused: enable it first. No body (one sent is ignored).',
  responses: { 202: deliveryQueued('The event is on its way again: its webhook-id.') },
  errors: {
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
};
