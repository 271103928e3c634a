// The event types, one row each: the plant a stream record's change is the event of, its data and
// that data's schema. A new type is a row here and its words (infra/openapi/webhooks.ts); the
// fan-out, the bench floor, the document and the tests read the row.
import type * as z from 'zod/mini';
import type { IdentifiedPlant } from '#lib/plants/schemas.ts';
import type { StoredPlant } from '#lib/plants/store.ts';
import { toIdentifiedPlant } from '#lib/plants/views.ts';

/** A change of one plant, as its stream record tells it: its name, and the images it carries. */
interface PlantChange {
  name: 'INSERT' | 'MODIFY' | 'REMOVE' | undefined;
  before: StoredPlant | undefined;
  after: StoredPlant | undefined;
}

/** What a data schema is made of, handed in by its readers: no function's bundle builds a schema. */
export type SchemaParts = { z: typeof z; IdentifiedPlant: typeof IdentifiedPlant };

interface EventTypeRow<Data> {
  /** The plant this change is the event of; undefined when it is not this event. */
  of: (change: PlantChange) => StoredPlant | undefined;
  data: (plant: StoredPlant, change: PlantChange) => Data;
  /** Its schema, as the document publishes it: one that lacks a field of the data fails to compile. */
  schema: (parts: SchemaParts) => z.ZodMiniType<NoInfer<Data>>;
}
const row = <Data>(eventType: EventTypeRow<Data>) => eventType;

export const EVENTS = {
  // a first create (a replay writes nothing)
  'plant.added': row({
    of: ({ name, after }) => (name === 'INSERT' ? after : undefined),
    data: toIdentifiedPlant,
    schema: ({ IdentifiedPlant }) => IdentifiedPlant,
  }),
  // every MODIFY is a PUT or PATCH that wrote: the plant as it now is
  'plant.updated': row({
    of: ({ name, after }) => (name === 'MODIFY' ? after : undefined),
    data: toIdentifiedPlant,
    schema: ({ IdentifiedPlant }) => IdentifiedPlant,
  }),
  'plant.deleted': row({
    of: ({ name, before }) => (name === 'REMOVE' ? before : undefined),
    data: ({ id }) => ({ id }),
    schema: ({ z, IdentifiedPlant }) => z.pick(IdentifiedPlant, { id: true }),
  }),
};

export type EventType = keyof typeof EVENTS;
export const EVENT_TYPES = /* @__PURE__ */ Object.keys(EVENTS) as EventType[];
