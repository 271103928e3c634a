// What a ping and a resend share: a send counted in the caller's minute, then put on the main lane
// (deliverToEndpoint moves it to the slow lane where its endpoint is). Apart from
// endpointReplies.ts: only the routes that send bundle SQS.
import type { DynamoTarget } from '#lib/dynamo/client.ts';
import { dynamoCountSend, dynamoUncountSend } from '#lib/endpointDeliveries/dynamoStore.ts';
import type {
  AttemptStore,
  DeliveryQueue,
  EndpointDelivery,
} from '#lib/endpointDeliveries/store.ts';
import { retryAfterIn } from '#lib/http/httpError.ts';
import { type Reply, unavailable } from '#lib/http/reply.ts';
import {
  DELIVERIES_UNAVAILABLE,
  endpointsUnavailable,
  sendsLimitedMessage,
} from '#lib/routes/endpointReplies.ts';
import { currentTraceId, type MetricName } from '#lib/telemetry.ts';
import { sqsDeliveryQueue } from '#lib/webhooks/retries.ts';
import { sqsClient } from '#lib/webhooks/sqsMessages.ts';

/** What a ping or resend is counted in and sent through. */
export interface SendDependencies {
  attemptStore: Pick<AttemptStore, 'countSend' | 'uncountSend'>;
  queue: DeliveryQueue;
}

/** Its send dependencies, with the route's other attempt store operations (`more`). */
export const sendDependencies = <More extends object = Record<never, never>>(
  webhooks: DynamoTarget,
  { region, queueUrl }: { region: string; queueUrl: string },
  more = {} as More,
) => ({
  attemptStore: {
    ...more,
    countSend: dynamoCountSend(webhooks),
    uncountSend: dynamoUncountSend(webhooks),
  },
  // the main lane only: the fakes of tests need no more
  queue: sqsDeliveryQueue(sqsClient(region), { main: queueUrl }) as DeliveryQueue,
});

/**
 * A ping or resend: counted in the caller's minute (429 past its most, or 503), then put on the
 * queue due now: 202 with its webhook-id, or 503 when the queue did not take it, its count given
 * back: a send that did not happen uses none of the caller's minute.
 */
export const countedSend = async (
  { attemptStore, queue }: SendDependencies,
  delivery: Omit<EndpointDelivery, 'attempts' | 'dueAt' | 'requestTraceId'>,
  { metric, outcome, signal }: { metric: MetricName; outcome: string; signal: AbortSignal },
): Promise<Reply> => {
  const { owner, endpointId: id, webhookId } = delivery;
  const log = { endpointId: id };
  const count = await attemptStore.countSend(owner, { signal });
  if (count.outcome === 'unavailable') return endpointsUnavailable(count.cause, log);
  if (count.outcome === 'limited') {
    const seconds = count.retryAfterSeconds;
    const [message, headers] = [sendsLimitedMessage(seconds), retryAfterIn(seconds)];
    const limited = { metric: 'EndpointSendsLimited', outcome: 'limited' } as const;
    return { status: 429, message, headers, ...limited, log };
  }
  try {
    // each attempt's line carries this request's trace id, as a plant change's do its writer's
    const requestTraceId = currentTraceId();
    await queue.send([{ ...delivery, attempts: 0, dueAt: Date.now(), requestTraceId }]);
  } catch (cause) {
    // the store unreachable too: the count stays, one of the minute's 10 used
    await attemptStore.uncountSend(owner, count.minute).catch(() => {});
    return unavailable(DELIVERIES_UNAVAILABLE, {
      metric: 'DeliveryQueueUnavailable',
      outcome: 'unavailable',
      cause,
      log: { ...log, webhookId },
    });
  }
  return { status: 202, body: { webhookId }, metric, outcome, log: { ...log, webhookId } };
};
