// POST /webhooks in the published document.
import { EndpointWithSecret } from '#lib/endpoints/answerSchemas.ts';
import { MAX_ENDPOINTS_PER_CALLER } from '#lib/endpoints/store.ts';
import { ENDPOINT_LIMIT_MESSAGE } from '#lib/routes/createEndpoint.ts';
import type { OperationDescription } from '../document.ts';
import { allEvents, endpoint, secret } from '../examples.ts';
import { jsonSuccess } from '../responses.ts';

export const operation: OperationDescription = {
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
        Location: {
          description: "The endpoint's address: `/webhooks/{id}`.",
          required: true,
          schema: { type: 'string', format: 'uri' },
          example: `https://api.example.com/webhooks/${endpoint.id}`,
        },
      },
    ),
  },
  errors: {
    409: {
      description: `You have ${MAX_ENDPOINTS_PER_CALLER} endpoints already, the most a caller may have: delete one first.`,
      examples: { limit: ['An 11th endpoint', ENDPOINT_LIMIT_MESSAGE] },
    },
  },
};
