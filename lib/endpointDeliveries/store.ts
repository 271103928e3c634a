// Deliveries to callers' endpoints, in domain terms: the message carrying one event to one endpoint
// (every attempt, a ping, a resend), and the contract of the attempts kept 14 days. No HTTP here.
import { randomBytes } from 'node:crypto';
import type * as z from 'zod/mini';
import type { StoreCall, Unavailable } from '#lib/dynamo/results.ts';
import type { Attempt as AttemptSchema } from '#lib/endpointDeliveries/answerSchemas.ts';
import type { StoredEndpoint } from '#lib/endpoints/store.ts';
import type { EVENTS, EventType, SchemaParts } from '#lib/plants/eventTypes.ts';

/** A ping is delivered as any event, but is no type an endpoint subscribes to: its data, the endpoint pinged. */
export const PING = 'webhook.ping';
export const pingSchema = ({ z }: SchemaParts) => z.object({ endpointId: z.string() });
export type DeliveredType = EventType | typeof PING;
/** A delivered type's data, as its schema has it (an event type's: its row's). */
type DataOf<Type extends DeliveredType> = z.output<
  ReturnType<Type extends EventType ? (typeof EVENTS)[Type]['schema'] : typeof pingSchema>
>;

/** How long attempts are kept, and a resend may name their event (docs/api.md, "Limits"). */
export const ATTEMPTS_KEPT_MS = 14 * 24 * 3600 * 1000;

/** One event on its way to one endpoint, as the endpoint-deliveries queue holds it. */
export interface EndpointDelivery {
  owner: string;
  endpointId: string;
  /** The same on every attempt and every resend of this event. */
  webhookId: string;
  type: DeliveredType;
  /** The JSON body: {type, timestamp, data}. */
  body: string;
  /** The plant changed, and the trace id of the request that wrote it (none for a delete) or that
   * sent it (a ping, a resend). */
  plantId?: number;
  requestTraceId?: string | undefined;
  /** Attempts made so far (0: the first is next). */
  attempts: number;
  /** When the next attempt is due, in ms since the epoch. */
  dueAt: number;
  lastError?: string;
  /** On the slow lane's queue: its endpoint was slow or failing, or it is a retry. */
  lane?: 'slow';
}

/** The lane of an endpoint's next delivery: the slow one while it is slow, failing, or on probation. */
export const laneOf = ({ failingSince, slowSince, url, standingUrl = url }: StoredEndpoint) =>
  failingSince || slowSince || standingUrl !== url ? ({ lane: 'slow' } as const) : {};

/** A message of the queue; an Error for anything else, which the queue's redrive then moves aside. */
export const endpointDeliveryOf = (text: string): EndpointDelivery => {
  const delivery = JSON.parse(text) as Partial<EndpointDelivery> | null;
  const { owner, endpointId, webhookId, type, body, attempts, dueAt, lane } = delivery ?? {};
  const strings = [owner, endpointId, webhookId, type, body];
  if (
    strings.some((value) => typeof value !== 'string') ||
    !Number.isSafeInteger(attempts) ||
    typeof dueAt !== 'number' ||
    (lane !== undefined && lane !== 'slow')
  ) {
    throw new Error('a message of the endpoint-deliveries queue that is no delivery');
  }
  return delivery as EndpointDelivery;
};

/** Standard Webhooks' body: the type, when it happened (ISO 8601, UTC), and its data. */
export const eventBody = <Type extends DeliveredType>(type: Type, at: Date, data: DataOf<Type>) =>
  JSON.stringify({ type, timestamp: at.toISOString(), data });

/** A webhook-id of an event made here and now (a ping). */
export const newWebhookId = () => `msg_${randomBytes(16).toString('base64url')}`;

/** One attempt, as GET /webhooks/{id}/attempts answers it. */
export type Attempt = z.infer<typeof AttemptSchema>;

/** `next`: where the next page of attempts starts, opaque to callers. */
export type AttemptsPage = { outcome: 'page'; attempts: Attempt[]; next?: string } | Unavailable;

/** An event an endpoint was sent, for a resend: its type and body as first delivered. */
export type SentEvent = Pick<EndpointDelivery, 'type' | 'body'>;
/** At most this many pings and resends, together, per caller per minute (docs/api.md, "Limits"). */
export const MAX_SENDS_PER_MINUTE = 10;
export type CountSendResult =
  /** Counted in the minute from `minute` (ISO 8601), which uncountSend gives back. */
  | { outcome: 'counted'; minute: string }
  /** The caller had MAX_SENDS_PER_MINUTE this minute, which ends in `retryAfterSeconds`. */
  | { outcome: 'limited'; retryAfterSeconds: number }
  | Unavailable;

export interface AttemptStore {
  /** Keeps `attempt` 14 days; with `event`, keeps it for a resend 14 days from its first send. */
  record(endpointId: string, attempt: Attempt, event?: SentEvent): Promise<void>;
  /** The endpoint's attempts of the last 14 days, newest first. */
  list: StoreCall<
    [endpointId: string, page: { limit: number; after?: string | undefined }],
    AttemptsPage
  >;
  /** The event `webhookId` as the endpoint was sent it in the last 14 days. */
  event: StoreCall<
    [endpointId: string, webhookId: string],
    { outcome: 'found'; event: SentEvent } | { outcome: 'notFound' } | Unavailable
  >;
  /** Counts a ping or resend in its caller's minute (all its endpoints', so that deleting and
   * re-creating one buys none), unless the caller had MAX_SENDS_PER_MINUTE. */
  countSend: StoreCall<[owner: string], CountSendResult>;
  /** Gives back a count of countSend's whose send did not happen (the queue did not take it). */
  uncountSend(owner: string, minute: string): Promise<void>;
}

/** Where deliveries wait, each on its lane: sent now (a ping, a resend, a new event) or when due (a retry). */
export interface DeliveryQueue {
  send(deliveries: readonly EndpointDelivery[]): Promise<void>;
}

/** An endpoint whose every attempt failed for this long is disabled (docs/api.md, "Limits": 5 days). */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;
