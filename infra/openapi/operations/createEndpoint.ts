// POST /webhooks in the published document.

import { MAX_ENDPOINTS_PER_CALLER } from '#lib/endpoints/store.ts';
import { EVENT_TYPES } from '#lib/plants/eventTypes.ts';
import { createEndpointRoute, ENDPOINT_LIMIT_MESSAGE } from '#lib/routes/createEndpoint.ts';
import { commonHeaders, errorResponses, type OperationDescription, schemaRef } from '../shared.ts';
import { badEndpointBody, urlUnsettled } from './endpointErrors.ts';

export const operation: OperationDescription = {
  route: createEndpointRoute,
  summary: 'Register a webhook endpoint',
  description:
    "Registers a receiver of yours, to be told of your own plants only: each event of its `events` (every type when left out), signed with its secret as Standard Webhooks says. This version stores endpoints; delivering events to them comes in the next. The answer is the only one that holds the secret, but a rotation's: keep it. At most " +
    `${MAX_ENDPOINTS_PER_CALLER} endpoints per caller.`,
  requestBody: {
    description: 'Where to deliver, and which events.',
    examples: {
      everything: {
        summary: 'Every event type',
        value: { url: 'https://hooks.example.com/plants' },
      },
      added: {
        summary: 'New plants only, with a description',
        value: {
          url: 'https://hooks.example.com/plants',
          events: ['plant.added'],
          description: 'Our shop',
        },
      },
    },
  },
  responses: {
    201: {
      description: 'Registered: the endpoint, with its secret (shown here and at rotation only).',
      headers: {
        Location: {
          description: "The endpoint's address: `/webhooks/{id}`.",
          required: true,
          schema: { type: 'string', format: 'uri' },
          example: 'https://api.example.com/webhooks/ep_2Un7Klsvqo_UuPRYKPuHxM',
        },
        ...commonHeaders,
      },
      content: {
        'application/json': {
          schema: schemaRef('EndpointWithSecret'),
          examples: {
            registered: {
              summary: 'A new endpoint',
              value: {
                id: 'ep_2Un7Klsvqo_UuPRYKPuHxM',
                url: 'https://hooks.example.com/plants',
                events: EVENT_TYPES,
                disabled: false,
                createdAt: '2026-11-25T12:00:00.000Z',
                secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
              },
            },
          },
        },
      },
    },
    ...errorResponses([400, 401, 403, 409, 413, 415, 500, 503], {
      400: badEndpointBody,
      409: {
        description: `You have ${MAX_ENDPOINTS_PER_CALLER} endpoints already, the most a caller may have: delete one first.`,
        examples: { limit: { summary: 'An 11th endpoint', message: ENDPOINT_LIMIT_MESSAGE } },
      },
      503: urlUnsettled,
    }),
  },
};
