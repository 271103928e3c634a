// PUT /webhooks/{id} in the published document.
import { EVENT_TYPES } from '#lib/plants/eventTypes.ts';
import { updateEndpointRoute } from '#lib/routes/updateEndpoint.ts';
import { errorResponses, jsonSuccess, type OperationDescription, schemaRef } from '../shared.ts';
import { badEndpointBody, endpointNotFound, urlUnsettled } from './endpointErrors.ts';

export const operation: OperationDescription = {
  route: updateEndpointRoute,
  summary: 'Replace a webhook endpoint',
  description:
    "Replaces the endpoint's `url`, `events`, `description` and `disabled`; each left out takes its default (every event type, no description, enabled), so a PUT enables an endpoint the service disabled unless it sends `disabled: true`. Its secret stays.",
  requestBody: {
    description: 'The new settings.',
    examples: {
      enable: {
        summary: 'Enabled again, every event',
        value: { url: 'https://hooks.example.com/plants' },
      },
      pause: {
        summary: 'Paused by hand',
        value: { url: 'https://hooks.example.com/plants', disabled: true },
      },
    },
  },
  responses: {
    200: jsonSuccess('The endpoint as replaced.', schemaRef('Endpoint'), {
      replaced: {
        summary: 'Enabled again',
        value: {
          id: 'ep_2Un7Klsvqo_UuPRYKPuHxM',
          url: 'https://hooks.example.com/plants',
          events: EVENT_TYPES,
          disabled: false,
          createdAt: '2026-11-25T12:00:00.000Z',
        },
      },
    }),
    ...errorResponses([400, 401, 403, 404, 413, 415, 500, 503], {
      400: badEndpointBody,
      404: endpointNotFound,
      503: urlUnsettled,
    }),
  },
};
