// The settings of the routes of a caller's own webhook endpoints: who may call, the endpoints'
// table, the telemetry, and where an endpoint may point.
import { authSettings } from './auth.ts';
import { queueSettings, type Variables } from './load.ts';
import { webhooksStoreSettings } from './store.ts';
import { telemetrySettings } from './telemetry.ts';
import { attemptSettings, streamDeadLetterSettings } from './webhook.ts';

export const endpointUrlSettings = (read: Variables) => ({
  /** Whether an endpoint may be http, or on a private address: on this machine only (npm start). */
  allowPrivate: read.flag('WEBHOOK_ALLOW_PRIVATE_URLS', false),
});

export const deliveryQueueSettings = queueSettings(
  'ENDPOINT_DELIVERY_QUEUE_URL',
  "the SQS queue of deliveries to callers' endpoints (infra/webhooks.yml)",
);

export const slowDeliveryQueueSettings = queueSettings(
  'ENDPOINT_SLOW_DELIVERY_QUEUE_URL',
  "the SQS queue of deliveries to callers' slow or failing endpoints, and of every retry (infra/webhooks.yml)",
);

export const endpointRouteSettings = {
  auth: authSettings,
  store: webhooksStoreSettings,
  telemetry: telemetrySettings,
};

/** The routes that register where an endpoint points (POST, PUT). */
export const endpointUrlRouteSettings = { ...endpointRouteSettings, urls: endpointUrlSettings };

/** The stream function that queues each plant event for its owner's endpoints. */
export const endpointEventSettings = {
  store: webhooksStoreSettings,
  queue: deliveryQueueSettings,
  slowQueue: slowDeliveryQueueSettings,
  streamDeadLetters: streamDeadLetterSettings,
  telemetry: telemetrySettings,
};

/** The function that makes each attempt of a delivery to a caller's endpoint. */
export const endpointDeliverySettings = {
  store: webhooksStoreSettings,
  queue: deliveryQueueSettings,
  slowQueue: slowDeliveryQueueSettings,
  telemetry: telemetrySettings,
  urls: endpointUrlSettings,
  attempts: attemptSettings,
};
