// DELETE /webhooks/{id} in the published document.
import { deleteEndpointRoute } from '#lib/routes/deleteEndpoint.ts';
import { commonHeaders, errorResponses, type OperationDescription } from '../shared.ts';
import { badEndpointId, endpointNotFound, endpointsUnavailable } from './endpointErrors.ts';

export const operation: OperationDescription = {
  route: deleteEndpointRoute,
  summary: 'Delete a webhook endpoint',
  description:
    'Removes one of your webhook endpoints: nothing more is sent to it. A retry after a success answers 404.',
  responses: {
    204: { description: 'Endpoint deleted', headers: commonHeaders },
    ...errorResponses([400, 401, 403, 404, 500, 503], {
      400: badEndpointId,
      404: endpointNotFound,
      503: endpointsUnavailable,
    }),
  },
};
