// The plant's shapes, as the specification and API.md define them: the single source for request
// validation, response bodies and the OpenAPI document (infra/openapi/), which reads
// the descriptions and examples registered here. Metadata costs nothing at parse time.
// zod/mini keeps the bundle (and so the cold start) small; the full `zod` API is not needed here.
import * as z from 'zod/mini';

/** The ids every JSON parser represents exactly (I-JSON, RFC 7493); beyond them ids would round. */
export const ID_MIN = -Number.MAX_SAFE_INTEGER;
export const ID_MAX = Number.MAX_SAFE_INTEGER;

const idRule = `an integer from ${ID_MIN} to ${ID_MAX}`;

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

/** The request body of `POST /plants`. Unknown properties are dropped, never stored. */
export const NewPlant = z
  .object(
    {
      // z.int() accepts only safe integers, which is exactly the API's id range (its JSON Schema
      // carries that range as minimum and maximum).
      id: z
        .int({
          error: (issue) =>
            issue.input === undefined ? `id is required: ${idRule}` : `id must be ${idRule}`,
        })
        .register(z.globalRegistry, {
          description: `Identification number of the plant: ${idRule}, the integers every JSON parser represents exactly (I-JSON, RFC 7493). 7 and 7.0 are the same id.`,
          format: 'int64',
          examples: [1],
        }),
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
export const Plant = z
  .object({
    name: z.string().register(z.globalRegistry, nameMeta),
    tag: z.optional(z.string().register(z.globalRegistry, tagMeta)),
  })
  .register(z.globalRegistry, {
    description: 'A plant in the store, as the service answers it: no id, and tag only when set.',
    examples: [{ name: 'Monstera', tag: 'indoor' }],
  });
export type Plant = z.infer<typeof Plant>;

/** The Plant a client sees for a stored or requested plant: name, and tag only when it has one. */
export const toPlant = ({ name, tag }: { name: string; tag?: string | undefined }): Plant =>
  tag === undefined ? { name } : { name, tag };
