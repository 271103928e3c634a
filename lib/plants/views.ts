// What a client is shown of a stored plant: its id and content fields by name, nothing else.
import { isDeepStrictEqual } from 'node:util';
import {
  type IdentifiedPlant,
  type NewPlant,
  PLANT_FIELDS,
  type PlantContent,
} from '#lib/plants/schemas.ts';
import type { StoredPlant } from '#lib/plants/store.ts';

// a loop, not entries: a listed page builds one per plant
const copyContent = (plant: Partial<PlantContent>, into: Partial<IdentifiedPlant>) => {
  for (const field of PLANT_FIELDS) if (plant[field] !== undefined) into[field] = plant[field];
  return into;
};

/** The content fields a plant has, in the schema's order (a field it lacks is left out). */
export const contentOf = (plant: Partial<PlantContent>) => copyContent(plant, {}) as PlantContent;

/** The plant with its id, as listing, reading, updating and the webhook answer it. */
export const toIdentifiedPlant = (plant: StoredPlant) =>
  copyContent(plant, { id: plant.id }) as IdentifiedPlant;

/** Whether a create repeats the stored plant: every field alike, none more, none fewer. */
export const sameContent = (stored: StoredPlant, plant: NewPlant) =>
  isDeepStrictEqual(contentOf(stored), contentOf(plant));
