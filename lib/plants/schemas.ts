// A plant, defined once: a field added here reaches bodies, answers, document, store and webhook.
// zod/mini keeps the bundle (and so the cold start) small.
import * as z from 'zod/mini';
import { idRule } from '#lib/plants/ids.ts';

// Every schema is /* @__PURE__ */: a bundle holds (a cold start builds) only those its route uses.

/** A schema's components.schemas key; not globalRegistry's `id`: toJSONSchema would $ref it. */
export const schemaNames = /* @__PURE__ */ z.registry<{ id: string }>();

/** Each string of a request body is well-formed Unicode (I-JSON; docs/api.md, "Requests and answers"): else a 400 naming it. */
export const wellFormed = (field: string) =>
  z.refine<string>(
    (value) => value.isWellFormed(),
    `${field} must be well-formed Unicode (no unpaired surrogates)`,
  );

const unicodeString = (field: string, required: boolean) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined && required
          ? `${field} is required: a string`
          : `${field} must be a string`,
    })
    .check(wellFormed(field));

/** A plant's content fields in answer order: plain names, so showing builds no schema. */
export const PLANT_FIELDS = ['name', 'tag'] as const;
export type PlantField = (typeof PLANT_FIELDS)[number];

/** A plant's content, field by field: each name above with its rules and its description. */
const plantFields = /* @__PURE__ */ (() =>
  ({
    name: unicodeString('name', true).register(z.globalRegistry, {
      description:
        'The name of the plant. Any Unicode string, the empty string included, stored and returned exactly as sent.',
      examples: ['Monstera'],
    }),
    tag: z.optional(
      unicodeString('tag', false).register(z.globalRegistry, {
        description: 'Tag to specify the type of the plant',
        examples: ['indoor'],
      }),
    ),
  }) satisfies Record<PlantField, z.ZodMiniType>)();

/** The fields as a message lists them: "name and optional tag". */
const listed = (shape: Record<string, z.ZodMiniType>) => {
  const names = Object.entries(shape).map(([name, schema]) =>
    schema._zod.optin === 'optional' ? `optional ${name}` : name,
  );
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.join('');
};

/** A request body: an object of these fields, or a 400 that names what it must be. */
const body = <Shape extends Record<string, z.ZodMiniType>>(describedAs: string, shape: Shape) =>
  z.object(shape, {
    error: () => `Request body must be a JSON object (${describedAs}: ${listed(shape)})`,
  });

// z.int() accepts only safe integers, which is exactly the API's id range (its JSON Schema carries
// that range as minimum and maximum)
const plantId = /* @__PURE__ */ (() =>
  z
    .int({
      error: (issue) =>
        issue.input === undefined ? `id is required: ${idRule}` : `id must be ${idRule}`,
    })
    .register(z.globalRegistry, {
      description: `Identification number of the plant: ${idRule}, the integers every JSON parser represents exactly (I-JSON, RFC 7493). 7 and 7.0 are the same id.`,
      format: 'int64',
      examples: [1],
    }))();

/** The request body of `POST /plants`. Unknown properties are dropped, never stored. */
export const NewPlant = /* @__PURE__ */ body('a NewPlant', {
  id: plantId,
  ...plantFields,
}).register(z.globalRegistry, {
  description:
    'A plant to add to the store: every field of Plant, plus its id. Other properties are allowed and ignored: never stored, never echoed.',
  examples: [{ id: 1, name: 'Monstera', tag: 'indoor' }],
});
export type NewPlant = z.infer<typeof NewPlant>;

/** A plant's content, and the response body of a created plant: the Plant schema has no id. */
export const Plant = /* @__PURE__ */ z.object(plantFields).register(z.globalRegistry, {
  description:
    'A plant in the store, as the service answers it: no id, and an optional field only when set.',
  examples: [{ name: 'Monstera', tag: 'indoor' }],
});
export type PlantContent = z.infer<typeof Plant>;

/** The request body of `PUT /plants/{id}`: a Plant, and the id it may carry back as it was read. */
export const PlantUpdate = /* @__PURE__ */ body('a Plant', {
  id: z.optional(plantId),
  ...plantFields,
}).register(z.globalRegistry, {
  description:
    "The plant's new content, replacing the old: an optional field left out is removed. An id, if present, must be the path's id, so that a client can send back what it read. Other properties are allowed and ignored.",
  examples: [{ name: 'Monstera deliciosa', tag: 'indoor' }],
});
export type PlantUpdate = z.infer<typeof PlantUpdate>;

/** A field as a merge patch gives it: left out, or a value; an optional field also null (removed). */
type Patchable<Shape extends Record<string, z.ZodMiniType>> = {
  [Field in keyof Shape]: Shape[Field] extends z.ZodMiniOptional<infer Inner>
    ? z.ZodMiniOptional<z.ZodMiniNullable<Inner>>
    : z.ZodMiniOptional<Shape[Field]>;
};
const patchable = <Shape extends Record<string, z.ZodMiniType>>(shape: Shape) =>
  Object.fromEntries(
    Object.entries(shape).map(([name, schema]) => [
      name,
      schema instanceof z.ZodMiniOptional
        ? z.optional(z.nullable(schema._zod.def.innerType))
        : z.optional(schema),
    ]),
  ) as Patchable<Shape>;

/** The request body of `PATCH /plants/{id}`: a JSON Merge Patch (RFC 7396) of a plant's content. */
export const PlantPatch = /* @__PURE__ */ body('a merge patch of a Plant', {
  id: z.optional(plantId),
  ...patchable(plantFields),
}).register(z.globalRegistry, {
  description:
    "The changes to a plant, as a JSON Merge Patch (RFC 7396): each field given replaces the plant's, null removes an optional field, a field left out stays as it is. An id, if present, must be the path's id. Other properties are allowed and ignored.",
  examples: [{ tag: 'outdoor' }, { tag: null }],
});
export type PlantPatch = z.infer<typeof PlantPatch>;

/** A plant with its id, as listing, reading and updating answer it, and the webhook sends it. */
export const IdentifiedPlant = /* @__PURE__ */ z
  .object({ id: plantId, ...plantFields })
  .register(z.globalRegistry, {
    description:
      "A plant of the caller's with its id, so that a client can address it: an optional field only when set.",
    examples: [{ id: 1, name: 'Monstera', tag: 'indoor' }],
  });
export type IdentifiedPlant = z.infer<typeof IdentifiedPlant>;

// The document's names, for the generator only: a bundle drops the whole call (pure, result unread)
/* @__PURE__ */ (() =>
  schemaNames
    .add(NewPlant, { id: 'NewPlant' })
    .add(Plant, { id: 'Plant' })
    .add(PlantUpdate, { id: 'PlantUpdate' })
    .add(PlantPatch, { id: 'PlantPatch' })
    .add(IdentifiedPlant, { id: 'PlantWithId' }))();
