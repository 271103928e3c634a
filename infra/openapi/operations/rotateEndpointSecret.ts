// POST /webhooks/{id}/secret in the published document.
import {
  OLD_SECRET_SIGNS_MS,
  rotateEndpointSecretRoute,
} from '#lib/routes/rotateEndpointSecret.ts';
import { errorResponses, jsonSuccess, type OperationDescription, schemaRef } from '../shared.ts';
import { badEndpointId, endpointNotFound, endpointsUnavailable } from './endpointErrors.ts';

export const operation: OperationDescription = {
  route: rotateEndpointSecretRoute,
  summary: "Rotate a webhook endpoint's secret",
  description: `Makes a new signing secret, answered here only. For ${OLD_SECRET_SIGNS_MS / 3_600_000} hours the one it replaces signs beside it (each delivery carries two \`v1,\` signatures), so your receiver can switch without missing a delivery. No body (one sent is ignored).`,
  responses: {
    200: jsonSuccess('The new secret.', schemaRef('EndpointSecret'), {
      rotated: {
        summary: 'A new secret',
        value: { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
      },
    }),
    ...errorResponses([400, 401, 403, 404, 500, 503], {
      400: badEndpointId,
      404: endpointNotFound,
      503: endpointsUnavailable,
    }),
  },
};
