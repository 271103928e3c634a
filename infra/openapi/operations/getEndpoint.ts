// GET /webhooks/{id} in the published document.
import { getEndpointRoute } from '#lib/routes/getEndpoint.ts';
import { errorResponses, jsonSuccess, type OperationDescription, schemaRef } from '../shared.ts';
import { badEndpointId, endpointNotFound, endpointsUnavailable } from './endpointErrors.ts';

export const operation: OperationDescription = {
  route: getEndpointRoute,
  summary: 'Read a webhook endpoint',
  description: 'One of your webhook endpoints, without its secret.',
  responses: {
    200: jsonSuccess('The endpoint.', schemaRef('Endpoint'), {
      endpoint: {
        summary: 'An endpoint the service disabled',
        value: {
          id: 'ep_2Un7Klsvqo_UuPRYKPuHxM',
          url: 'https://hooks.example.com/plants',
          events: ['plant.added'],
          disabled: true,
          disabledReason: 'answered 410 Gone',
          createdAt: '2026-11-25T12:00:00.000Z',
        },
      },
    }),
    ...errorResponses([400, 401, 403, 404, 500, 503], {
      400: badEndpointId,
      404: endpointNotFound,
      503: endpointsUnavailable,
    }),
  },
};
