// POST /webhooks/{id}/secret: a new signing secret for the caller's endpoint, answered once; the
// one it replaces signs beside it for 24 hours, so the receiver can switch without a lost delivery.
// No body: one sent is ignored.
import { dynamoRotateEndpointSecret } from '#lib/endpoints/dynamoRotation.ts';
import { EndpointPath } from '#lib/endpoints/requestSchemas.ts';
import { endpointRefusal, newSecret } from '#lib/routes/endpointReplies.ts';
import { defineRoute } from '#lib/routes/route.ts';

/** How long a rotated-out secret still signs beside the new one. */
export const OLD_SECRET_SIGNS_MS = 24 * 3600 * 1000;

export default defineRoute({
  method: 'POST',
  path: '/webhooks/{id}/secret',
  tables: { webhooks: ['GetItem', 'UpdateItem'] },
  params: EndpointPath,
  dependencies: ({ webhooks }) => ({
    endpointStore: { rotateSecret: dynamoRotateEndpointSecret(webhooks) },
  }),
  handle: async ({ path: { id }, caller, signal }, { endpointStore }) => {
    const secret = newSecret();
    const keepOldUntil = new Date(Date.now() + OLD_SECRET_SIGNS_MS).toISOString();
    const rotation = { secret, keepOldUntil };
    const result = await endpointStore.rotateSecret(caller.sub, id, rotation, { signal });
    if (result.outcome !== 'rotated') return endpointRefusal(id, result);
    return {
      status: 200,
      body: { secret },
      metric: 'EndpointSecretsRotated',
      outcome: 'rotated',
      log: { endpointId: id },
    };
  },
});
