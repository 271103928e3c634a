// The plant's shapes, as the specification and API.md define them: the single source for request
// validation, response bodies and the OpenAPI document (infra/openapi/), which reads
// the descriptions and examples registered here. Metadata costs nothing at parse time.
// zod/mini keeps the bundle (and so the cold start) small; the full `zod` API is not needed here.
import * as z from 'zod/mini';
import { idRule } from '#lib/plants/ids.ts';

// Each schema is marked /* @__PURE__ */ (building one has no effect beyond it; its registered
// metadata is read only by the OpenAPI generator), so that a function's bundle holds, and its cold
// start builds, only the schemas its route validates with.

// the specification's field descriptions, shared by NewPlant and Plant
const nameMeta = {
  description:
    'The name of the plant. Any Unicode string, the empty string included, stored and returned exactly as sent.',
  examples: ['Monstera'],
};
const tagMeta = { description: 'Tag to specify the type of the plant', examples: ['indoor'] };

const unicodeString = (field: string, required: boolean) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined && required
          ? `${field} is required: a string`
          : `${field} must be a string`,
    })
    .check(
      z.refine(
        (value: string) => value.isWellFormed(),
        `${field} must be well-formed Unicode (no unpaired surrogates)`,
      ),
    );

// z.int() accepts only safe integers, which is exactly the API's id range (its JSON Schema carries
// that range as minimum and maximum)
const plantId = /* @__PURE__ */ z
  .int({
    error: (issue) =>
      issue.input === undefined ? `id is required: ${idRule}` : `id must be ${idRule}`,
  })
  .register(z.globalRegistry, {
    description: `Identification number of the plant: ${idRule}, the integers every JSON parser represents exactly (I-JSON, RFC 7493). 7 and 7.0 are the same id.`,
    format: 'int64',
    examples: [1],
  });

/** The request body of `POST /plants`. Unknown properties are dropped, never stored. */
export const NewPlant = /* @__PURE__ */ z
  .object(
    {
      id: plantId,
      name: unicodeString('name', true).register(z.globalRegistry, nameMeta),
      tag: z.optional(unicodeString('tag', false).register(z.globalRegistry, tagMeta)),
    },
    { error: 'Request body must be a JSON object (a NewPlant: id, name and optional tag)' },
  )
  .register(z.globalRegistry, {
    description:
      'A plant to add to the store: every field of Plant, plus its id. Other properties are allowed and ignored: never stored, never echoed.',
    examples: [{ id: 1, name: 'Monstera', tag: 'indoor' }],
  });
export type NewPlant = z.infer<typeof NewPlant>;

/** The response body of a created plant: the spec's Plant has no id. */
export const Plant = /* @__PURE__ */ z
  .object({
    name: z.string().register(z.globalRegistry, nameMeta),
    tag: z.optional(z.string().register(z.globalRegistry, tagMeta)),
  })
  .register(z.globalRegistry, {
    description: 'A plant in the store, as the service answers it: no id, and tag only when set.',
    examples: [{ name: 'Monstera', tag: 'indoor' }],
  });
export type Plant = z.infer<typeof Plant>;

/** The request body of `PUT /plants/{id}`: a Plant, and the id it may carry back as it was read. */
export const PlantUpdate = /* @__PURE__ */ z
  .object(
    {
      id: z.optional(plantId),
      name: unicodeString('name', true).register(z.globalRegistry, nameMeta),
      tag: z.optional(unicodeString('tag', false).register(z.globalRegistry, tagMeta)),
    },
    { error: 'Request body must be a JSON object (a Plant: name and optional tag)' },
  )
  .register(z.globalRegistry, {
    description:
      "The plant's new name and tag: a tag left out is removed. An id, if present, must be the path's id, so that a client can send back what it read. Other properties are allowed and ignored.",
    examples: [{ name: 'Monstera deliciosa', tag: 'indoor' }],
  });
export type PlantUpdate = z.infer<typeof PlantUpdate>;

/** A plant with its id, as listing, reading and updating answer it. */
export const IdentifiedPlant = /* @__PURE__ */ z
  .object({
    id: z.int().register(z.globalRegistry, {
      description: `Identification number of the plant: ${idRule}`,
      format: 'int64',
      examples: [1],
    }),
    name: z.string().register(z.globalRegistry, nameMeta),
    tag: z.optional(z.string().register(z.globalRegistry, tagMeta)),
  })
  .register(z.globalRegistry, {
    description:
      "A plant of the caller's with its id, so that a client can address it: tag only when set.",
    examples: [{ id: 1, name: 'Monstera', tag: 'indoor' }],
  });
export type IdentifiedPlant = z.infer<typeof IdentifiedPlant>;
