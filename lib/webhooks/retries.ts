// After a failed attempt an event waits in a queue (SQS), durably, for its schedule's next step or a
// longer Retry-After, or ends in the dead-letter queue (410 Gone, schedule used up): no function sleeps.
import { hash } from 'node:crypto';
import { ChangeMessageVisibilityCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { MAX_WAIT_MS } from '#lib/config/webhook.ts';
import { NotDueYet } from '#lib/webhooks/batchResponse.ts';
import { type DeliveryOutcome, describeOutcome } from '#lib/webhooks/delivery.ts';
import { type OutgoingMessage, sendMessages } from '#lib/webhooks/sqsMessages.ts';

/** An event waiting for its next attempt, as the retry queue holds it. */
export interface WaitingEvent {
  /** The same for every attempt (receivers deduplicate): a plant created again is a new event. */
  webhookId: string;
  plantId: number;
  /** The plant's owner: its tenant on the fair queue (absent from a message of an older version). */
  owner?: string | undefined;
  body: string;
  /** The trace id of the request that added the plant, for every attempt's line. */
  requestTraceId?: string | undefined;
  attempts: number;
  lastError: string;
  /** When the next attempt is due, in ms since the epoch. */
  dueAt: number;
}

/** The event a retry queue message holds; an Error for any other (the redrive policy moves it). */
export const waitingEventOf = (body: string): WaitingEvent => {
  const event = JSON.parse(body) as Partial<WaitingEvent> | null;
  const { webhookId, plantId, attempts, dueAt } = event ?? {};
  if (
    !event ||
    typeof webhookId !== 'string' ||
    typeof plantId !== 'number' ||
    typeof event.body !== 'string' ||
    !Number.isSafeInteger(attempts) ||
    typeof dueAt !== 'number' ||
    !['string', 'undefined'].includes(typeof event.owner)
  ) {
    throw new Error('a message of the retry queue that is no waiting event');
  }
  return event as WaitingEvent;
};

export type Failure = Exclude<DeliveryOutcome, { outcome: 'delivered' }>;

export type NextStep = { kind: 'wait'; waitMs: number } | { kind: 'deadLetter'; reason: string };

/** After `attempts` attempts, the last of which failed so: wait how long, or give up why. */
export const nextStep = (attempts: number, failure: Failure, schedule: number[]): NextStep => {
  if (failure.outcome === 'gone') return { kind: 'deadLetter', reason: describeOutcome(failure) };
  const step = schedule[attempts - 1];
  if (step === undefined)
    return {
      kind: 'deadLetter',
      reason: `${describeOutcome(failure)}; the retry schedule is used up after ${attempts} attempts`,
    };
  const asked = failure.outcome === 'refused' ? (failure.retryAfterMs ?? 0) : 0;
  return { kind: 'wait', waitMs: Math.max(step, Math.min(asked, MAX_WAIT_MS)) };
};

/** Early by less than this is due: SQS's delays and visibility are whole seconds. */
const DUE_MARGIN_MS = 1000;

/** A message received before `dueAt` is hidden until then (its visibility timeout) and reported NotDueYet. */
export const hideIfNotDue = async (
  queue: Pick<RetryQueue, 'hideUntil'>,
  { receiptHandle, what }: { receiptHandle: string; what: string },
  dueAt: number,
) => {
  if (dueAt - Date.now() <= DUE_MARGIN_MS) return;
  await queue.hideUntil(receiptHandle, dueAt);
  throw new NotDueYet(`${what} is due at ${new Date(dueAt).toISOString()}`);
};

/** SQS delays a new message at most 15 minutes; a longer wait is held by its visibility. */
const MAX_DELAY_SECONDS = 900;

export interface RetryQueue {
  wait(event: WaitingEvent): Promise<void>;
  /** A message received before it is due goes back, hidden until then (at most 12 hours). */
  hideUntil(receiptHandle: string, dueAt: number): Promise<void>;
}

/** Whole seconds until `dueAt`, at most `most`: a longer wait is held again when it comes early. */
const secondsUntil = (dueAt: number, most = MAX_DELAY_SECONDS) =>
  Math.min(Math.max(Math.ceil((dueAt - Date.now()) / 1000), 0), most);

/** `body` as a message delayed until it is due, its owner (if known) its tenant on a fair queue. */
const dueMessage = (body: { dueAt: number; owner?: string | undefined }): OutgoingMessage => ({
  body,
  delaySeconds: secondsUntil(body.dueAt),
  ...(body.owner === undefined ? {} : { groupId: tenantOf(body.owner) }),
});

export const sqsRetryQueue = (client: SQSClient, queueUrl: string): RetryQueue => ({
  wait: (event) => sendMessages(client, queueUrl, [dueMessage(event)]),
  async hideUntil(receiptHandle, dueAt) {
    await client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueUrl,
        ReceiptHandle: receiptHandle,
        VisibilityTimeout: secondsUntil(dueAt, MAX_WAIT_MS / 1000),
      }),
    );
  },
});

/** A caller's tenant on a fair queue: its `sub` hashed, as MessageGroupId takes 128 ASCII at most. */
export const tenantOf = (owner: string) => hash('sha256', owner, 'base64url');

/** Callers' deliveries: a message each on its lane's queue, delayed until due, its caller its tenant. */
export const sqsDeliveryQueue = (client: SQSClient, queueUrls: { main: string; slow?: string }) => {
  const urlOf = (lane: 'main' | 'slow') => {
    const url = queueUrls[lane];
    // a route's ping or resend takes the main lane only
    if (!url) throw new Error(`no queue was given for the ${lane} lane`);
    return url;
  };
  return {
    async send(deliveries: readonly { owner: string; dueAt: number; lane?: 'slow' }[]) {
      for (const lane of ['main', 'slow'] as const) {
        const messages = deliveries
          .filter((delivery) => (delivery.lane ?? 'main') === lane)
          .map(dueMessage);
        if (messages.length > 0) await sendMessages(client, urlOf(lane), messages);
      }
    },
    /** A message of `lane`'s queue, hidden until it is due. */
    hideUntil: (receiptHandle: string, dueAt: number, lane: 'main' | 'slow' = 'main') =>
      sqsRetryQueue(client, urlOf(lane)).hideUntil(receiptHandle, dueAt),
  };
};
