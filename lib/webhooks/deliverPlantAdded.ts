// The stream consumer: each newly stored plant, from the table's stream, POSTed to the receiver,
// signed. An event that fails is tried again in the same invocation with backoff (the same
// webhook-id every time); one that still fails goes whole to the dead letters, and the stream
// moves on, so one bad receiver never holds the other plants back for long. A record is reported
// as failed (ReportBatchItemFailures: the stream tries it again) only when even that fails.

import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { count, type Telemetry } from '#lib/telemetry.ts';
import type { DeadLetterSink } from '#lib/webhooks/deadLetters.ts';
import {
  type DeliveryOutcome,
  type DeliveryTarget,
  deliverOnce,
  describeOutcome,
} from '#lib/webhooks/delivery.ts';
import { plantAddedEvent } from '#lib/webhooks/plantAdded.ts';

export interface DeliverPlantAddedDependencies extends Telemetry {
  target: DeliveryTarget;
  deadLetters: DeadLetterSink;
  attempts: number;
  backoffMs: number;
  /** Waits between attempts (tests may shorten them). */
  sleep?: (ms: number) => Promise<void>;
}

/** Room kept at the end of an invocation: an attempt that might not end before it is not made. */
const TIME_MARGIN_MS = 1000;
/** How many handled webhook-ids a container remembers, so a retried batch sends none twice. */
const REMEMBERED_EVENTS = 10_000;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const deliverPlantAddedHandler = ({
  target,
  deadLetters,
  attempts,
  backoffMs,
  sleep = pause,
  logger,
  metrics,
}: DeliverPlantAddedDependencies) => {
  const processor = new BatchProcessor(EventType.DynamoDBStreams);
  // events this container delivered or dead-lettered: a batch retried for another record's sake
  // skips them (a bounded set: the oldest are forgotten first)
  const handled = new Set<string>();
  const remember = (webhookId: string) => {
    handled.add(webhookId);
    if (handled.size > REMEMBERED_EVENTS) handled.delete(handled.values().next().value as string);
  };

  const deliverRecord = async (record: DynamoDBRecord, context: Context) => {
    const event = plantAddedEvent(record);
    const fields = { webhookId: event.webhookId, plantId: event.plantId };
    if (handled.has(event.webhookId)) return;
    let outcome: DeliveryOutcome | undefined;
    let made = 0;
    while (made < attempts) {
      const wait = made === 0 ? 0 : backoffMs * 2 ** (made - 1);
      // an attempt that could outlast the invocation is not made: the event is kept instead
      if (context.getRemainingTimeInMillis() < wait + target.timeoutMs + TIME_MARGIN_MS) break;
      // the first attempt goes at once: even a zero timer would wait for the next turn of the loop
      if (wait > 0) await sleep(wait);
      made += 1;
      outcome = await deliverOnce(target, event);
      if (outcome.outcome === 'delivered') {
        remember(event.webhookId);
        count(metrics, 'WebhooksDelivered');
        logger.info('webhook delivered', { ...fields, attempts: made, status: outcome.status });
        return;
      }
      count(metrics, 'WebhookAttemptsFailed');
      logger.warn('webhook attempt failed', {
        ...fields,
        attempt: made,
        reason: describeOutcome(outcome),
      });
    }
    const lastError = outcome ? describeOutcome(outcome) : 'no time left for an attempt';
    // if this throws, the record is reported as failed and the stream tries it again
    await deadLetters.put({
      ...fields,
      body: event.body,
      attempts: made,
      lastError,
      failedAt: new Date().toISOString(),
    });
    remember(event.webhookId);
    count(metrics, 'WebhooksDeadLettered');
    logger.error('webhook kept as a dead letter', { ...fields, attempts: made, lastError });
  };

  return middy(async (event: DynamoDBStreamEvent, context: Context) =>
    processPartialResponse(
      event,
      (record: DynamoDBRecord) => deliverRecord(record, context),
      processor,
      {
        context,
      },
    ),
  )
    .use(injectLambdaContext(logger, { logEvent: false, resetKeys: true }))
    .use(logMetrics(metrics, { captureColdStartMetric: true }));
};
