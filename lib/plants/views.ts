// What a client is shown of a stored plant: its id and content fields by name, nothing else.
import { isDeepStrictEqual } from 'node:util';
import {
  type IdentifiedPlant,
  type NewPlant,
  PLANT_FIELDS,
  type PlantContent,
} from '#lib/plants/schemas.ts';
import type { StoredPlant } from '#lib/plants/store.ts';

/** The content fields a plant has, in the schema's order (a field it lacks is left out). */
export const contentOf = (plant: Partial<PlantContent>): PlantContent =>
  Object.fromEntries(
    PLANT_FIELDS.flatMap((field) => (plant[field] === undefined ? [] : [[field, plant[field]]])),
  ) as PlantContent;

/** The plant with its id, as listing, reading, updating and the webhook answer it. */
export const toIdentifiedPlant = (plant: StoredPlant): IdentifiedPlant => ({
  id: plant.id,
  ...contentOf(plant),
});

/** Whether a create repeats the stored plant: every field alike, none more, none fewer. */
export const sameContent = (stored: StoredPlant, plant: NewPlant) =>
  isDeepStrictEqual(contentOf(stored), contentOf(plant));
