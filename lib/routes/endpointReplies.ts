// What the endpoint routes share: the endpoint as shown (never its secrets), its url's rule, its
// refusals, and those of a ping or resend (endpointSends.ts).
import { randomBytes } from 'node:crypto';
import type { NotFound, Unavailable } from '#lib/dynamo/results.ts';
import { MAX_SENDS_PER_MINUTE } from '#lib/endpointDeliveries/store.ts';
import type { Endpoint, EndpointStore, StoredEndpoint } from '#lib/endpoints/store.ts';
import { type ErrorReply, notFound, storeOutage, unavailable } from '#lib/http/reply.ts';
import { EVENT_TYPES } from '#lib/plants/eventTypes.ts';
import { type EndpointPolicy, urlAddressProblem, urlShapeProblem } from '#lib/ssrf/safePost.ts';

/**
 * The endpoint as answered: its fields in the document's order, an absent one left out; one taking
 * every type lists the types of this version (docs/api.md, "A caller's endpoint").
 */
export const endpointView = (stored: StoredEndpoint): Endpoint => {
  const { id, url, events, description, disabled, disabledReason, createdAt } = stored;
  return {
    id,
    url,
    events: events ?? [...EVENT_TYPES],
    ...(description === undefined ? {} : { description }),
    disabled,
    ...(disabledReason === undefined ? {} : { disabledReason }),
    createdAt,
  };
};

/** A signing secret as Standard Webhooks writes it: whsec_ and 32 random bytes in base64. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export const HOST_UNRESOLVED =
  "The url's host could not be resolved just now: retry in a few seconds";

/** Why `url` may not be registered (shape, scheme, address): 400; 503 if unresolved now. */
export const urlRefusal = async (
  url: string,
  policy: EndpointPolicy,
): Promise<ErrorReply | undefined> => {
  const shape = urlShapeProblem(url, policy.allowPrivate);
  if (shape) return { status: 400, message: shape, metric: 'ValidationFailures' };
  const address = await urlAddressProblem(url, policy);
  if (!address) return undefined;
  return address.unsettled
    ? unavailable(HOST_UNRESOLVED, { metric: 'ResolverUnavailable', outcome: 'unavailable' })
    : { status: 400, message: address.problem, metric: 'ValidationFailures' };
};

export const endpointNotFoundMessage = (id: string) =>
  `No webhook endpoint with id ${id}: it does not exist, or it is not yours`;

export const ENDPOINTS_UNAVAILABLE =
  'The webhook endpoint store is busy or unreachable: retry in a few seconds';

export const endpointsUnavailable = storeOutage(ENDPOINTS_UNAVAILABLE);

/** The reply when the store has no endpoint `id` of the caller's (nor another's), or is out. */
export const endpointRefusal = (id: string, result: NotFound | Unavailable) =>
  result.outcome === 'notFound'
    ? notFound(endpointNotFoundMessage(id), 'EndpointsNotFound', { endpointId: id })
    : endpointsUnavailable(result.cause, { endpointId: id });

/** The caller's endpoint `id`, or the reply that it is not there or the store is out. */
export const ownedEndpoint = async (
  endpointStore: Pick<EndpointStore, 'get'>,
  owner: string,
  id: string,
  signal: AbortSignal,
): Promise<{ endpoint: StoredEndpoint } | { refusal: ErrorReply }> => {
  const result = await endpointStore.get(owner, id, { signal });
  return result.outcome === 'found'
    ? { endpoint: result.endpoint }
    : { refusal: endpointRefusal(id, result) };
};

export const sendsLimitedMessage = (seconds: number) =>
  `You had your ${MAX_SENDS_PER_MINUTE} pings and resends of this minute, all your endpoints together: try again in ${seconds} s`;

export const DELIVERIES_UNAVAILABLE =
  'The deliveries queue is busy or unreachable, so nothing was sent: retry in a few seconds';
