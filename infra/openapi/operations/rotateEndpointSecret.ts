// POST /webhooks/{id}/secret in the published document.
import { EndpointSecret } from '#lib/endpoints/answerSchemas.ts';
import { OLD_SECRET_SIGNS_MS } from '#lib/routes/rotateEndpointSecret.ts';
import type { OperationDescription } from '../document.ts';
import { secret } from '../examples.ts';
import { jsonSuccess } from '../responses.ts';

export const operation: OperationDescription = {
  summary: "Rotate a webhook endpoint's secret",
  description: `Makes a new signing secret, answered here only. For ${OLD_SECRET_SIGNS_MS / 3_600_000} hours the one it replaces signs beside it (each delivery carries two \`v1,\` signatures), so your receiver can switch without missing a delivery. No body (one sent is ignored).`,
  responses: {
    200: jsonSuccess('The new secret.', EndpointSecret, {
      rotated: ['A new secret', { secret }],
    }),
  },
};
