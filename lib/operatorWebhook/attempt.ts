// One attempt to deliver an event and what follows a failure, the same for the first (the stream's)
// and every later one (the retry queue's): the same webhook-id every time, a fresh signature each.
import { type Invocation, linesOf, type Telemetry } from '#lib/telemetry.ts';
import type { DeadLetterSink } from '#lib/webhooks/deadLetters.ts';
import { type DeliveryTarget, deliverOnce, describeOutcome } from '#lib/webhooks/delivery.ts';
import { nextStep, type RetryQueue, type WaitingEvent } from '#lib/webhooks/retries.ts';

export interface AttemptDependencies extends Telemetry {
  target: DeliveryTarget;
  /** The wait after each failed attempt, in ms (WEBHOOK_RETRY_SCHEDULE). */
  schedule: number[];
  retryQueue: RetryQueue;
  deadLetters: DeadLetterSink;
}

export type EventToDeliver = Omit<WaitingEvent, 'attempts' | 'lastError' | 'dueAt'>;

/** After a failure the event waits or is dead-lettered; where neither keeps it, this throws. */
export const attemptDelivery =
  ({ target, schedule, retryQueue, deadLetters, ...telemetry }: AttemptDependencies) =>
  async (invocation: Invocation, event: EventToDeliver, attemptsBefore: number) => {
    const { webhookId, plantId, body, owner, requestTraceId } = event;
    const attempts = attemptsBefore + 1;
    const fields = { webhookId, plantId, request_trace_id: requestTraceId, attempt: attempts };
    const log = linesOf(telemetry, invocation, fields);
    const outcome = await deliverOnce(target, { webhookId, body });
    if (outcome.outcome === 'delivered')
      return log('INFO', 'webhook delivered', 'WebhooksDelivered', { status: outcome.status });
    const lastError = describeOutcome(outcome);
    const next = nextStep(attempts, outcome, schedule);
    if (next.kind === 'wait') {
      const dueAt = Date.now() + next.waitMs;
      // what a retry keeps: these alone, whatever else a retry queue message held
      const kept = { webhookId, plantId, owner, body, requestTraceId };
      await retryQueue.wait({ ...kept, attempts, lastError, dueAt });
      const nextAttemptAt = new Date(dueAt).toISOString();
      const text = 'webhook attempt failed; it waits for the next';
      return log('WARN', text, 'WebhookAttemptsFailed', { reason: lastError, nextAttemptAt });
    }
    const failedAt = new Date().toISOString();
    await deadLetters.put({ webhookId, plantId, body, attempts, lastError: next.reason, failedAt });
    log('ERROR', 'webhook kept as a dead letter', 'WebhooksDeadLettered', { reason: next.reason });
  };
