// What a client is shown of a stored plant: everything but the store's metadata (and its id where
// the answer has none). Derived by leaving out, so a field added to the plant's schema is shown
// without a change here; plain functions, since answering needs no schema.
import { isDeepStrictEqual } from 'node:util';
import type { IdentifiedPlant, NewPlant, PlantContent } from '#lib/plants/schemas.ts';
import type { StoredPlant } from '#lib/plants/store.ts';

/**
 * The plant with its id, as listing, reading, updating and the webhook answer it: the id first,
 * then its fields by name, so that a plant is always the same text whatever order the store kept.
 */
export const toIdentifiedPlant = ({
  createdAt: _createdAt,
  createdBy: _createdBy,
  version: _version,
  id,
  ...content
}: StoredPlant): IdentifiedPlant =>
  ({
    id,
    ...Object.fromEntries(Object.entries(content).sort(([a], [b]) => (a < b ? -1 : 1))),
  }) as IdentifiedPlant;

/** The Plant a created plant is answered with: the spec's Plant has no id. */
export const toPlant = (stored: StoredPlant): PlantContent => {
  const { id: _id, ...content } = toIdentifiedPlant(stored);
  return content;
};

/** Whether a create repeats the stored plant: every field alike, none more, none fewer. */
export const sameContent = (stored: StoredPlant, { id: _id, ...content }: NewPlant) =>
  isDeepStrictEqual(toPlant(stored), content);
