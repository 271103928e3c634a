// GET /webhooks/{id} in the published document.
import { Endpoint } from '#lib/endpoints/answerSchemas.ts';
import type { OperationDescription } from '../document.ts';
import { endpoint } from '../examples.ts';
import { jsonSuccess } from '../responses.ts';

const { createdAt, ...registered } = endpoint;

export const operation: OperationDescription = {
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
};
