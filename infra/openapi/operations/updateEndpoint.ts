// PUT /webhooks/{id} in the published document.
import { Endpoint } from '#lib/endpoints/answerSchemas.ts';
import type { OperationDescription } from '../document.ts';
import { allEvents, endpoint } from '../examples.ts';
import { jsonSuccess } from '../responses.ts';

export const operation: OperationDescription = {
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
};
