// POST /webhooks/{id}/ping in the published document.
import { PING } from '#lib/endpointDeliveries/store.ts';
import type { OperationDescription } from '../document.ts';
import { deliveryQueued, sendsLimited } from '../endpointErrors.ts';

export const operation: OperationDescription = {
  summary: 'Ping a webhook endpoint',
  description: `Sends your endpoint a \`${PING}\` event now (\`data\`: \`{"endpointId"}\`), signed and retried as any other delivery, and listed in its attempts. A disabled endpoint is pinged too, so you can test it before enabling it again. \`${PING}\` is no type of \`events\`. No body (one sent is ignored).`,
  responses: {
    202: deliveryQueued('The ping is on its way: its webhook-id, as its attempts will carry it.'),
  },
  errors: { 429: sendsLimited },
};
