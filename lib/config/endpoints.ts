// The settings of a caller's own webhook endpoints: where an endpoint may point, the queues of
// deliveries to them, and the groups of the functions that deliver.
import type { Variables } from './load.ts';
import { deliveryQueueSettings, slowDeliveryQueueSettings } from './queues.ts';
import { webhooksStoreSettings } from './store.ts';
import { telemetrySettings } from './telemetry.ts';
import { attemptSettings, streamDeadLetterSettings } from './webhook.ts';

export const endpointUrlSettings = (read: Variables) => ({
  /** Whether an endpoint may be http, or on a private address: on this machine only (npm start). */
  allowPrivate: read.flag('WEBHOOK_ALLOW_PRIVATE_URLS', false),
});

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
  main: deliveryQueueSettings,
  slow: slowDeliveryQueueSettings,
  telemetry: telemetrySettings,
  /** How each attempt is made: its timeout, the wait after a failed one, and where it may go. */
  delivery: (read: Variables) => ({
    ...attemptSettings(read),
    policy: endpointUrlSettings(read),
    // both lanes' retention (serverless.yml's custom.deliveryRetentionSeconds): a delivery that has
    // waited half of it is given up as an attempt, before SQS could drop it unrecorded
    retentionMs: read.positiveInt('ENDPOINT_DELIVERY_RETENTION_SECONDS', 1_209_600) * 1000,
  }),
};
