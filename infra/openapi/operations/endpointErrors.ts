// The statuses the operations on a caller's own webhook endpoints word their own way: a bad path
// id or url (400), an endpoint that is not there (404), the endpoint store's outage (503), and
// what a ping and a resend share: their answer (202), their most per minute (429), and the
// deliveries queue's outage (503).

import { MAX_SENDS_PER_MINUTE } from '#lib/endpointDeliveries/store.ts';
import { EndpointPath, NewEndpoint } from '#lib/endpoints/requestSchemas.ts';
import { BEARER_REFUSALS } from '#lib/http/bearerAuth.ts';
import {
  DELIVERIES_UNAVAILABLE,
  ENDPOINTS_UNAVAILABLE,
  endpointNotFoundMessage,
  HOST_UNRESOLVED,
  sendsLimitedMessage,
} from '#lib/routes/endpointReplies.ts';
import { headerRef, jsonSuccess, refusalOf, schemaRef } from '../shared.ts';

const EXAMPLE_ID = 'ep_2Un7Klsvqo_UuPRYKPuHxM';

export const badEndpointId = {
  description: 'The path id is not an endpoint id.',
  examples: {
    badId: { summary: 'An id that is none', message: refusalOf(EndpointPath, { id: '7' }) },
  },
};

/** The 400 of a route with an endpoint's settings in its body (and, for PUT, an id in its path). */
export const badEndpointBody = {
  description:
    'The body or the path id is not valid: the body is missing, not JSON or not an object, or breaks a field rule (see the schema): `url` is not an absolute https URL with no user info or fragment, or it points at an address that is not public (loopback, private, link-local, shared, reserved; every address of the host is checked), or its host does not resolve; `events` is empty, repeats a type or names an unknown one; `description` is too long; `url` or `description` is not well-formed Unicode (an unpaired surrogate). The message names the field and why.',
  examples: {
    missingUrl: { summary: 'No url', message: refusalOf(NewEndpoint, {}) },
    privateUrl: {
      summary: 'A url on a private address',
      message:
        'url must point at public addresses only (hooks.internal has an address that is not public): register a receiver reachable from the internet',
    },
  },
};

export const endpointNotFound = {
  description: "No webhook endpoint with this id, or it is another caller's: the two answer alike.",
  examples: {
    notFound: {
      summary: "No such endpoint, or not the caller's",
      message: endpointNotFoundMessage(EXAMPLE_ID),
    },
  },
};

export const endpointsUnavailable = {
  description:
    "The endpoint store is throttling or unreachable, the identity provider's key set cannot be fetched, or the request ran out of time. Retry after `Retry-After` seconds.",
  headers: { 'Retry-After': headerRef('RetryAfter') },
  examples: {
    storeUnavailable: {
      summary: 'The endpoint store is busy or unreachable',
      message: ENDPOINTS_UNAVAILABLE,
    },
    keysUnavailable: {
      summary: "The identity provider's key set cannot be fetched",
      message: BEARER_REFUSALS.keysUnavailable,
    },
  },
};

/** The 503 of a registration or replacement: also a url whose host could not be resolved just now. */
export const urlUnsettled = {
  ...endpointsUnavailable,
  description: `${endpointsUnavailable.description} Or the url's host could not be resolved just now (the resolver's answer was not a verdict on the url).`,
  examples: {
    ...endpointsUnavailable.examples,
    hostUnresolved: {
      summary: "The url's host could not be resolved now",
      message: HOST_UNRESOLVED,
    },
  },
};

/** The 503 of a ping or resend: the endpoint store's, or the deliveries queue that did not take it. */
export const deliveriesUnavailable = {
  ...endpointsUnavailable,
  description: `${endpointsUnavailable.description} Or the deliveries queue did not take the delivery: nothing was sent.`,
  examples: {
    ...endpointsUnavailable.examples,
    queueUnavailable: {
      summary: 'The deliveries queue is busy or unreachable',
      message: DELIVERIES_UNAVAILABLE,
    },
  },
};

/** The 429 of a ping or resend: the endpoint's pings and resends together, per minute. */
export const sendsLimited = {
  description: `The endpoint had ${MAX_SENDS_PER_MINUTE} pings and resends (counted together) this minute: try again after \`Retry-After\` seconds, when the minute ends.`,
  headers: { 'Retry-After': headerRef('RetryAfter') },
  examples: {
    limited: {
      summary: 'The 11th ping or resend of a minute',
      message: sendsLimitedMessage(EXAMPLE_ID, 42),
    },
  },
};

/** The 202 of a ping or resend. */
export const deliveryQueued = (description: string) =>
  jsonSuccess(description, schemaRef('QueuedDelivery'), {
    queued: { summary: 'On its way', value: { webhookId: 'msg_p5jXN8AQM9LWM0D4loKWxJ' } },
  });
