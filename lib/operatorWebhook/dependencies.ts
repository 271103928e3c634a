// What the webhook functions build once per container: the receiver and its signing keys (or SSM's,
// cached five minutes, so a rotation arrives without a deploy), the retry and dead-letter queues.
import type { KeyObject } from 'node:crypto';
import { getParameter } from '@aws-lambda-powertools/parameters/ssm';
import {
  type ReceiverSettings,
  type SecretSource,
  signingKeys,
  type WebhookSettings,
} from '#lib/config/webhook.ts';
import type { AttemptDependencies } from '#lib/operatorWebhook/attempt.ts';
import type { Telemetry } from '#lib/telemetry.ts';
import { type DeadLetter, sqsDeadLetters } from '#lib/webhooks/deadLetters.ts';
import type { DeliveryTarget } from '#lib/webhooks/delivery.ts';
import { sqsRetryQueue } from '#lib/webhooks/retries.ts';
import { sqsClient } from '#lib/webhooks/sqsMessages.ts';

/** How long a secret read from SSM is used before it is read again. */
export const SECRET_MAX_AGE_SECONDS = 300;

const keysFrom = (source: SecretSource): DeliveryTarget['signingKeys'] => {
  if (source.kind === 'value') return async () => source.keys;
  // the keys of the value last read: made again only when a rotation changes it
  let parsed: { value: string | undefined; keys: KeyObject[] | undefined } | undefined;
  return async () => {
    const value = await getParameter(source.name, {
      decrypt: true,
      maxAge: SECRET_MAX_AGE_SECONDS,
    });
    if (parsed?.value !== value) parsed = { value, keys: value ? signingKeys(value) : undefined };
    const keys = parsed?.keys;
    if (!keys)
      throw new Error(
        `the SSM parameter ${source.name} does not hold whsec_ secrets separated by spaces`,
      );
    return keys;
  };
};

/** The receiver, with its signing keys. */
export const deliveryTarget = ({ url, secret, timeoutMs }: ReceiverSettings): DeliveryTarget => ({
  url,
  signingKeys: keysFrom(secret),
  timeoutMs,
});

export const webhookDependencies = (settings: WebhookSettings) => {
  const sqs = sqsClient(settings.region);
  return {
    target: deliveryTarget(settings),
    schedule: settings.schedule,
    retryQueue: sqsRetryQueue(sqs, settings.retryQueueUrl),
    deadLetters: sqsDeadLetters<DeadLetter>(sqs, settings.deadLetterQueueUrl),
  } satisfies Omit<AttemptDependencies, keyof Telemetry>;
};
