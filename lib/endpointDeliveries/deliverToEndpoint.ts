// Every attempt of a delivery to a caller's endpoint, from the endpoint-deliveries queue: the
// endpoint is read each time (deleted: nothing is sent; disabled: only a ping), the POST is
// SSRF-safe (safePost.ts), the attempt recorded; a failure waits in a new message (schedule,
// Retry-After), ends the delivery, or disables the endpoint (410, or 5 days of failures). A message
// is one (event, endpoint): one endpoint's failures never hold back another's, and the deliveries
// of an endpoint slow, failing, disabled or on probation (pings and resends included) and every
// retry take the slow lane, so that they never hold back a quick endpoint's batches; it leaves it
// at its third quick answer in a row. A delivery that waited half its queue's retention is given
// up as an attempt. A batch item failure only when the store or the queue could not do their part.
import type { Context, SQSRecord } from 'aws-lambda';
import { signingKeys } from '#lib/config/webhook.ts';
import {
  type Attempt,
  type AttemptStore,
  type DeliveryQueue,
  DISABLE_AFTER_FAILING_MS,
  endpointDeliveryOf,
  laneOf,
  PING,
} from '#lib/endpointDeliveries/store.ts';
import {
  type EndpointStore,
  QUICK_ANSWERS_TO_LEAVE,
  type StoredEndpoint,
} from '#lib/endpoints/store.ts';
import { type EndpointPolicy, postToEndpoint } from '#lib/ssrf/safePost.ts';
import { linesOf, type Telemetry } from '#lib/telemetry.ts';
import { queueConsumer } from '#lib/webhooks/batchResponse.ts';
import { type DeliveryOutcome, describeOutcome, statusOutcome } from '#lib/webhooks/delivery.ts';
import { hideIfNotDue, nextStep } from '#lib/webhooks/retries.ts';
import { webhookHeaders } from '#lib/webhooks/signature.ts';

export interface EndpointDeliveryDependencies extends Telemetry {
  endpoints: Pick<EndpointStore, 'get' | 'setHealth'>;
  attempts: Pick<AttemptStore, 'record'>;
  queue: DeliveryQueue & {
    hideUntil: (receiptHandle: string, dueAt: number, lane?: 'slow') => Promise<void>;
  };
  /** The wait after each failed attempt, in ms (WEBHOOK_RETRY_SCHEDULE). */
  schedule: number[];
  timeoutMs: number;
  policy: EndpointPolicy;
  /** How long its queue keeps a message (ENDPOINT_DELIVERY_RETENTION_SECONDS), in ms. */
  retentionMs: number;
}

/** The keys of the secrets that sign now: the current one, and a replaced one for 24 hours. */
const keysOf = ({ id, secrets }: StoredEndpoint, now: number) => {
  const signing = secrets.filter(({ expiresAt }) => !expiresAt || Date.parse(expiresAt) > now);
  const keys = signingKeys(signing.map(({ secret }) => secret).join(' '));
  if (!keys) throw new Error(`endpoint ${id} holds no whsec_ secret that signs now: rotate it`);
  return keys;
};

/** Why the service disables the endpoint after this failure, if it does (docs/api.md, "A caller's endpoint"). */
const disablingReason = (outcome: DeliveryOutcome, failingSince: string, now: number) => {
  if (outcome.outcome === 'gone') return 'its receiver answered 410 Gone';
  if (now - Date.parse(failingSince) >= DISABLE_AFTER_FAILING_MS)
    return `every attempt failed since ${failingSince}: 5 days`;
  return undefined;
};

export const deliverToEndpointHandler = ({
  endpoints,
  attempts,
  queue,
  schedule,
  timeoutMs,
  policy,
  retentionMs,
  ...telemetry
}: EndpointDeliveryDependencies) => {
  const deliver = async (invocation: Context, { body: message, ...record }: SQSRecord) => {
    const delivery = endpointDeliveryOf(message);
    const { owner, endpointId, webhookId, type, body, lane, plantId } = delivery;
    const { requestTraceId: request_trace_id } = delivery;
    const attempt = delivery.attempts + 1;
    // whose delivery and how long past due it waited: the slow lane's age per caller (operations.md)
    const waiting = {
      callerSub: owner,
      lane: lane ?? 'main',
      waitedMs: Date.now() - delivery.dueAt,
    };
    const fields = { endpointId, webhookId, type, plantId, request_trace_id, attempt, ...waiting };
    const logAttempt = linesOf(telemetry, invocation, fields);
    // the event is kept with its delivery's first attempt, for a resend
    const keep = (made: Omit<Attempt, 'webhookId' | 'type' | 'attempt'>) =>
      attempts.record(
        endpointId,
        { webhookId, type, attempt, ...made },
        delivery.attempts === 0 ? { type, body } : undefined,
      );
    // half its queue's retention waited (a message with no SentTimestamp, never from SQS, has not)
    const queuedMs = Date.now() - Number(record.attributes?.SentTimestamp);
    const expiring = queuedMs >= retentionMs / 2;
    const hideUntil = (handle: string, dueAt: number) => queue.hideUntil(handle, dueAt, lane);
    const { receiptHandle } = record;
    if (!expiring)
      await hideIfNotDue({ hideUntil }, { receiptHandle, what: webhookId }, delivery.dueAt);
    const found = await endpoints.get(owner, endpointId);
    if (found.outcome === 'unavailable') throw found.cause;
    const endpoint = found.outcome === 'found' ? found.endpoint : undefined;
    if (!endpoint || (endpoint.disabled && type !== PING)) {
      const is = endpoint ? 'disabled' : 'deleted';
      const text = `endpoint delivery dropped: the endpoint is ${is}`;
      return logAttempt('INFO', text, 'EndpointEventsDropped');
    }
    // given up as an attempt (listed, resendable) before SQS could drop it unrecorded
    if (expiring) {
      const error = `exhausted: it waited ${Math.round(queuedMs / 1000)} s for an attempt, half of what its queue keeps`;
      await keep({ at: new Date().toISOString(), error, durationMs: 0 });
      const text = 'endpoint delivery ended: it waited too long for an attempt';
      return logAttempt('WARN', text, 'EndpointEventsExhausted', { reason: error });
    }
    // an endpoint slow, failing or on probation since this delivery was queued (a ping and a
    // resend are queued on the main lane): the slow lane takes it
    if (!lane && laneOf(endpoint).lane) return queue.send([{ ...delivery, lane: 'slow' }]);
    const now = Date.now();
    const headers = webhookHeaders(keysOf(endpoint, now), webhookId, body);
    const answer = await postToEndpoint({ url: endpoint.url, body, headers, timeoutMs }, policy);
    const outcome: DeliveryOutcome =
      'reason' in answer
        ? { outcome: 'unreachable', reason: answer.reason }
        : statusOutcome(answer.status, answer.retryAfterMs);
    const status = 'status' in answer ? answer.status : undefined;
    const redirect = status !== undefined && status >= 300 && status < 400;
    const error =
      'reason' in answer ? answer.reason : redirect ? 'redirect not followed' : undefined;
    const at = new Date(now).toISOString();
    const durationMs = Date.now() - now;
    await keep({ at, status, error, durationMs });
    if (outcome.outcome === 'delivered') {
      // half the attempt's timeout or more: its next deliveries take the slow lane
      const slow = durationMs >= timeoutMs / 2;
      const { slowSince, failingSince, quickAnswers = 0, url } = endpoint;
      if (slow && (!slowSince || failingSince || quickAnswers))
        await endpoints.setHealth(owner, endpointId, { kind: 'slow', since: at });
      // off the slow lane only at the QUICK_ANSWERS_TO_LEAVE-th quick answer in a row at its url, as
      // stored (a failure meanwhile starts them over): one quick answer cannot
      if (!slow && laneOf(endpoint).lane) {
        const left =
          quickAnswers + 1 >= QUICK_ANSWERS_TO_LEAVE &&
          (await endpoints.setHealth(owner, endpointId, { kind: 'healthy', url }));
        if (!left) await endpoints.setHealth(owner, endpointId, { kind: 'quick', url, since: at });
      }
      const text = 'endpoint delivery delivered';
      return logAttempt('INFO', text, 'EndpointEventsDelivered', { status });
    }
    const { failingSince, url } = endpoint;
    const disabling = disablingReason(outcome, failingSince ?? at, now);
    // nothing more is sent to it, this event included, until a PUT enables it
    if (disabling && endpoint.disabled) return;
    const health = disabling && {
      kind: 'disabled' as const,
      reason: disabling,
      url,
      since: at,
      failingSince,
    };
    // not applied (a PUT of a new url, a delete, failures counted afresh meanwhile): it goes on
    if (health && (await endpoints.setHealth(owner, endpointId, health)))
      return logAttempt('WARN', 'endpoint disabled', 'EndpointsDisabled', { reason: disabling });
    if (!failingSince || endpoint.quickAnswers)
      await endpoints.setHealth(owner, endpointId, { kind: 'failing', since: at });
    // a 410 that disabled nothing fails as any other: the event waits for the next step
    const failure =
      outcome.outcome === 'gone' ? { ...outcome, outcome: 'refused' as const } : outcome;
    const next = nextStep(attempt, failure, schedule);
    // the caller sees its attempts for 14 days, and may resend it
    if (next.kind === 'deadLetter') {
      const text = 'endpoint delivery ended: every attempt failed';
      return logAttempt('WARN', text, 'EndpointEventsExhausted', { reason: next.reason });
    }
    const dueAt = Date.now() + next.waitMs;
    const reason = describeOutcome(outcome);
    await queue.send([{ ...delivery, attempts: attempt, dueAt, lastError: reason, lane: 'slow' }]);
    const nextAttemptAt = new Date(dueAt).toISOString();
    const text = 'endpoint attempt failed; it waits for the next';
    logAttempt('WARN', text, 'EndpointAttemptsFailed', { reason, nextAttemptAt });
  };
  return queueConsumer(telemetry, 'endpoint delivery', deliver);
};
