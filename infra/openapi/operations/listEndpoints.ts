// GET /webhooks in the published document.
import { listEndpointsRoute } from '#lib/routes/listEndpoints.ts';
import { errorResponses, jsonSuccess, type OperationDescription, schemaRef } from '../shared.ts';
import { endpointsUnavailable } from './endpointErrors.ts';

export const operation: OperationDescription = {
  route: listEndpointsRoute,
  summary: 'List your webhook endpoints',
  description: 'Your webhook endpoints, oldest first: at most 10, so one page. No secret is shown.',
  responses: {
    200: jsonSuccess(
      'Your endpoints; `[]` when you have none.',
      { type: 'array', items: schemaRef('Endpoint') },
      {
        endpoints: {
          summary: 'One endpoint',
          value: [
            {
              id: 'ep_2Un7Klsvqo_UuPRYKPuHxM',
              url: 'https://hooks.example.com/plants',
              events: ['plant.added'],
              disabled: false,
              createdAt: '2026-11-25T12:00:00.000Z',
            },
          ],
        },
      },
    ),
    ...errorResponses([401, 403, 500, 503], { 503: endpointsUnavailable }),
  },
};
