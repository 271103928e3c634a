// A caller's webhook endpoints, in domain terms: the store's contract, no HTTP. To every method,
// another caller's endpoint (not its owner's, who registered it) is one that is not there.
import { randomBytes } from 'node:crypto';
import type * as z from 'zod/mini';
import type { NotFound, StoreCall, Unavailable } from '#lib/dynamo/results.ts';
import type { Endpoint as EndpointSchema } from '#lib/endpoints/answerSchemas.ts';
import type { EventType } from '#lib/plants/eventTypes.ts';

/** An endpoint's id: ep_ and 16 random bytes in base64url, never guessable from another. */
export const newEndpointId = () => `ep_${randomBytes(16).toString('base64url')}`;
export const ENDPOINT_ID = /^ep_[A-Za-z0-9_-]{22}$/;

/** At most this many endpoints per caller (docs/api.md, "Limits"). */
export const MAX_ENDPOINTS_PER_CALLER = 10;

/** An endpoint as the API shows it: never its secrets. */
export type Endpoint = z.infer<typeof EndpointSchema>;

/** A signing secret (`whsec_...`), and until when it still signs (a rotated-out one: 24 hours). */
export interface EndpointSecret {
  secret: string;
  /** ISO 8601; absent for the current secret. */
  expiresAt?: string | undefined;
}

/** An endpoint as stored: with its owner and secrets (the newest first). */
export interface StoredEndpoint extends Omit<Endpoint, 'events'> {
  owner: string;
  /** The types it takes; absent: every type, so that a type added by an upgrade reaches it too. */
  events?: EventType[] | undefined;
  secrets: EndpointSecret[];
  /** ISO 8601: the first of the attempts that have all failed since; absent after a success. */
  failingSince?: string | undefined;
  /** ISO 8601: since when it has been on the slow lane (slow, or failing then answering). */
  slowSince?: string | undefined;
  /** The url its standing was earned at (absent: its url); another, a PUT's, is on probation. */
  standingUrl?: string | undefined;
  /** Quick answers in a row at its url while on the slow lane (QUICK_ANSWERS_TO_LEAVE end it). */
  quickAnswers?: number | undefined;
}

/** What a caller sets of an endpoint (POST, PUT): `events` left out is every type. */
export type EndpointContent = Pick<StoredEndpoint, 'url' | 'events' | 'description' | 'disabled'>;

/** Whether the endpoint takes events of `type` (a name, as an item another version stored holds). */
export const takesType = ({ events }: Pick<StoredEndpoint, 'events'>, type: string) =>
  events === undefined || events.some((taken) => taken === type);

/** Quick answers in a row at its url that take an endpoint off the slow lane: one cannot. */
export const QUICK_ANSWERS_TO_LEAVE = 3;

/** What an attempt tells of an endpoint: it answers (quickly at `url`: one more in a row, or
 * enough to leave the slow lane), slowly or failing since when, or it is disabled. */
export type EndpointHealth =
  | { kind: 'healthy'; url: string }
  | { kind: 'quick'; url: string; since: string }
  | { kind: 'failing'; since: string }
  | { kind: 'slow'; since: string }
  /** Only while `url` is still its url and, with `failingSince`, its failures count from then. */
  | {
      kind: 'disabled';
      reason: string;
      url: string;
      since: string;
      failingSince?: string | undefined;
    };

/** What the store answers of one endpoint of the owner's: `outcome`, none of theirs, or an outage. */
type OneEndpointResult<Outcome extends string> =
  | { outcome: Outcome; endpoint: StoredEndpoint }
  | NotFound
  | Unavailable;

export interface EndpointStore {
  /** Registers `endpoint` for `owner`; at MAX_ENDPOINTS_PER_CALLER: limitReached, none written. */
  create: StoreCall<
    [owner: string, endpoint: Omit<StoredEndpoint, 'owner'>],
    { outcome: 'created'; endpoint: StoredEndpoint } | { outcome: 'limitReached' } | Unavailable
  >;
  /** The owner's endpoints, oldest first. */
  list: StoreCall<[owner: string], { outcome: 'list'; endpoints: StoredEndpoint[] } | Unavailable>;
  get: StoreCall<[owner: string, id: string], OneEndpointResult<'found'>>;
  /** Replaces what the caller sets; a replace that enables it clears its disabledReason. */
  replace: StoreCall<
    [owner: string, id: string, content: EndpointContent],
    OneEndpointResult<'replaced'>
  >;
  /** Makes `secret` current; the one replaced signs until `keepOldUntil`; an expired one goes. */
  rotateSecret: StoreCall<
    [owner: string, id: string, rotation: { secret: string; keepOldUntil: string }],
    OneEndpointResult<'rotated'>
  >;
  delete: StoreCall<[owner: string, id: string], { outcome: 'deleted' } | NotFound | Unavailable>;
  /** Records what an attempt told of the endpoint: false when it did not apply (see each health). */
  setHealth(owner: string, id: string, health: EndpointHealth): Promise<boolean>;
}
