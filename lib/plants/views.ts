// What a client is shown of a plant: name, and tag only when it has one (and its id where the
// answer needs one). Plain functions: answering needs no schema.

/** The Plant a client sees for a stored or requested plant: name, and tag only when it has one. */
export const toPlant = ({
  name,
  tag,
}: {
  name: string;
  tag?: string | undefined;
}): { name: string; tag?: string } => (tag === undefined ? { name } : { name, tag });

/** The plant with its id, as listing, reading and updating answer it. */
export const toIdentifiedPlant = ({
  id,
  name,
  tag,
}: {
  id: number;
  name: string;
  tag?: string | undefined;
}): { id: number; name: string; tag?: string } =>
  tag === undefined ? { id, name } : { id, name, tag };
