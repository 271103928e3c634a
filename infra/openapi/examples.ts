// The examples the document shows, written once: most are the schemas' own (their registry
// metadata), so an answer's example and its schema's agree.
import { Attempt, QueuedDelivery } from '#lib/endpointDeliveries/answerSchemas.ts';
import { Endpoint, EndpointSecret } from '#lib/endpoints/answerSchemas.ts';
import { EVENT_TYPES } from '#lib/plants/eventTypes.ts';
import { IdentifiedPlant } from '#lib/plants/schemas.ts';
import { exampleOf } from './schemas.ts';

/** A plant with a tag (id 1), and one without (id 2). */
export const monstera = exampleOf(IdentifiedPlant);
export const fern = { id: 2, name: 'Fern' };

/** An endpoint of the caller's, for `plant.added` only; `allEvents` registered for every type. */
export const endpoint = exampleOf(Endpoint);
export const allEvents = { ...endpoint, events: [...EVENT_TYPES] };

export const secret = exampleOf(EndpointSecret.shape.secret);
export const webhookId = exampleOf(QueuedDelivery.shape.webhookId);

export const attempt = exampleOf(Attempt);
