// How the operations on a caller's webhook endpoints word the statuses they share (400, 404, 503),
// and what a ping and a resend share (202, 429).

import { endpointUrlSettings } from '#lib/config/endpoints.ts';
import { QueuedDelivery } from '#lib/endpointDeliveries/answerSchemas.ts';
import { MAX_SENDS_PER_MINUTE } from '#lib/endpointDeliveries/store.ts';
import { EndpointPath, NewEndpoint } from '#lib/endpoints/requestSchemas.ts';
import {
  DELIVERIES_UNAVAILABLE,
  ENDPOINTS_UNAVAILABLE,
  endpointNotFoundMessage,
  HOST_UNRESOLVED,
  sendsLimitedMessage,
  urlRefusal,
} from '#lib/routes/endpointReplies.ts';
import type { RouteModule } from '../routes.ts';
import { type ErrorStatus, type ErrorWordings, storeUnavailable } from './errors.ts';
import { endpoint, webhookId } from './examples.ts';
import { jsonSuccess, retryAfterHeader } from './responses.ts';
import { type RouteSchemas, refusalOf } from './schemas.ts';

export const badEndpointId: ErrorStatus = {
  description: 'The path id is not an endpoint id.',
  examples: { badId: ['An id that is none', refusalOf(EndpointPath, { id: '7' })] },
};

// the route's answer to a url whose host has an address that is not public
const privateUrl = await urlRefusal('https://hooks.internal/plants', {
  allowPrivate: false,
  resolve: async () => [{ address: '10.0.0.7', family: 4 }],
});

/** The 400 of a route with an endpoint's settings in its body (and, for PUT, an id in its path). */
const badEndpointBody: ErrorStatus = {
  description:
    'The body or the path id is not valid: the body is missing, not JSON or not an object, or breaks a field rule (see the schema): `url` is not an absolute https URL with no user info or fragment, or it points at an address that is not public (loopback, private, link-local, shared, reserved; every address of the host is checked), or its host does not resolve; `events` is empty, repeats a type or names an unknown one; `description` is too long; `url` or `description` is not well-formed Unicode (an unpaired surrogate). The message names the field and why.',
  examples: {
    missingUrl: ['No url', refusalOf(NewEndpoint, {})],
    privateUrl: ['A url on a private address', String(privateUrl?.message)],
  },
};

export const endpointNotFound: ErrorStatus = {
  description: "No webhook endpoint with this id, or it is another caller's: the two answer alike.",
  examples: {
    notFound: ["No such endpoint, or not the caller's", endpointNotFoundMessage(endpoint.id)],
  },
};

/** The endpoint store's 503, and what more causes it on a route. */
const endpointsUnavailable = (more = '', example: ErrorStatus['examples'] = {}) =>
  storeUnavailable('endpoint', ENDPOINTS_UNAVAILABLE, more ? `. ${more}` : '.', example);

/** The endpoints' 400, 404 and 503 (one more cause with a url's check or a delivery's queue). */
export const endpointErrors = ({
  queues,
  settings,
  body,
}: Pick<RouteModule, 'queues' | 'settings'> & RouteSchemas): ErrorWordings => ({
  400: body ? badEndpointBody : badEndpointId,
  404: endpointNotFound,
  503: queues?.includes('endpointDeliveries')
    ? endpointsUnavailable('Or the deliveries queue did not take the delivery: nothing was sent.', {
        queueUnavailable: ['The deliveries queue is busy or unreachable', DELIVERIES_UNAVAILABLE],
      })
    : Object.values(settings).includes(endpointUrlSettings)
      ? endpointsUnavailable(
          "Or the url's host could not be resolved just now (the resolver's answer was not a verdict on the url).",
          { hostUnresolved: ["The url's host could not be resolved now", HOST_UNRESOLVED] },
        )
      : endpointsUnavailable(),
});

/** The 429 of a ping or resend: the endpoint's pings and resends together, per minute. */
export const sendsLimited: ErrorStatus = {
  description: `The caller had ${MAX_SENDS_PER_MINUTE} pings and resends this minute, all its endpoints' counted together (deleting and re-creating one buys no more): try again after \`Retry-After\` seconds, when the minute ends.`,
  headers: retryAfterHeader,
  examples: {
    limited: ['The 11th ping or resend of a minute', sendsLimitedMessage(42)],
  },
};

export const deliveryQueued = (description: string) =>
  jsonSuccess(description, QueuedDelivery, { queued: ['On its way', { webhookId }] });
