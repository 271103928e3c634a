// The plant's shapes, as the specification and API.md define them: the single source for request
// validation, response bodies and (later) the OpenAPI document.
// zod/mini keeps the bundle (and so the cold start) small; the full `zod` API is not needed here.
import * as z from 'zod/mini';

/** The ids every JSON parser represents exactly (I-JSON, RFC 7493); beyond them ids would round. */
export const ID_MIN = -Number.MAX_SAFE_INTEGER;
export const ID_MAX = Number.MAX_SAFE_INTEGER;

const idRule = `an integer from ${ID_MIN} to ${ID_MAX}`;

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
export const NewPlant = z.object(
  {
    // z.int() accepts only safe integers, which is exactly the API's id range.
    id: z.int({
      error: (issue) =>
        issue.input === undefined ? `id is required: ${idRule}` : `id must be ${idRule}`,
    }),
    name: unicodeString('name', true),
    tag: z.optional(unicodeString('tag', false)),
  },
  { error: 'Request body must be a JSON object (a NewPlant: id, name and optional tag)' },
);
export type NewPlant = z.infer<typeof NewPlant>;

/** The response body of a created plant: the spec's Plant has no id. */
export const Plant = z.object({
  name: z.string(),
  tag: z.optional(z.string()),
});
export type Plant = z.infer<typeof Plant>;

/** Every error body: `error` is the HTTP status code. */
export const ErrorBody = z.object({
  error: z.int32(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The Plant a client sees for a stored or requested plant: name, and tag only when it has one. */
export const toPlant = ({ name, tag }: { name: string; tag?: string | undefined }): Plant =>
  tag === undefined ? { name } : { name, tag };
