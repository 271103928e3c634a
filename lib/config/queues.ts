// The queues of deliveries to callers' endpoints: a leaf, so that a route sending to one bundles
// these loaders alone (lib/routes/route.ts), not the delivery functions' settings.
import { queueSettings } from './load.ts';

export const deliveryQueueSettings = /* @__PURE__ */ queueSettings(
  'ENDPOINT_DELIVERY_QUEUE_URL',
  "the SQS queue of deliveries to callers' endpoints (infra/webhooks.yml)",
);

export const slowDeliveryQueueSettings = /* @__PURE__ */ queueSettings(
  'ENDPOINT_SLOW_DELIVERY_QUEUE_URL',
  "the SQS queue of deliveries to callers' slow or failing endpoints, and of every retry (infra/webhooks.yml)",
);
