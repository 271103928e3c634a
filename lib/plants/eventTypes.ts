// The event types, one row each: the plant a stream record's change is the event of, and its data.
// A new type is a row here and its words (infra/openapi/webhooks.ts); fan-out and document read it.
import type { StoredPlant } from '#lib/plants/store.ts';

/** A change of one plant, as its stream record tells it: its name, and the images it carries. */
interface PlantChange {
  name: 'INSERT' | 'MODIFY' | 'REMOVE' | undefined;
  before: StoredPlant | undefined;
  after: StoredPlant | undefined;
}

interface EventTypeRow {
  /** The plant this change is the event of; undefined when it is not this event. */
  of: (change: PlantChange) => StoredPlant | undefined;
  data: 'plant' | 'id';
}

export const EVENTS = {
  // a first create (a replay writes nothing)
  'plant.added': {
    of: ({ name, after }) => (name === 'INSERT' ? after : undefined),
    data: 'plant',
  },
  // every MODIFY is a PUT or PATCH that wrote: the plant as it now is
  'plant.updated': {
    of: ({ name, after }) => (name === 'MODIFY' ? after : undefined),
    data: 'plant',
  },
  'plant.deleted': {
    of: ({ name, before }) => (name === 'REMOVE' ? before : undefined),
    data: 'id',
  },
} as const satisfies Record<string, EventTypeRow>;

export type EventType = keyof typeof EVENTS;
export const EVENT_TYPES = /* @__PURE__ */ Object.keys(EVENTS) as EventType[];
