// The query of GET /plants. It arrives as text: each parameter has one canonical spelling, so that
// one page has one address, and any other parameter is refused: a filter the service does not know
// is never silently ignored.
import * as z from 'zod/mini';
import { MAX_CURSOR_LENGTH } from '#lib/plants/listCursor.ts';

export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;
const limitRule = `limit must be an integer from 1 to ${LIST_LIMIT_MAX}, given once`;

const limitText = z
  .string({ error: limitRule })
  .check(
    z.refine((text) => /^[1-9][0-9]{0,2}$/.test(text) && Number(text) <= LIST_LIMIT_MAX, limitRule),
  );
const cursorText = z.string({
  error: 'cursor must be given once, as the Link header of the previous page has it',
});
const tagRule = 'tag must be the tag of the plants to list: not empty, given once';
const tagText = z.string({ error: tagRule }).check(z.minLength(1, tagRule));

const parameters = {
  limit: z._default(z.pipe(limitText, z.transform(Number)), LIST_LIMIT_DEFAULT),
  tag: z.optional(tagText),
  cursor: z.optional(cursorText),
};
const names = Object.keys(parameters);
const known = `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

export const ListQuery = z.strictObject(parameters, {
  error: (issue) =>
    issue.code === 'unrecognized_keys'
      ? `The query parameter ${JSON.stringify(issue.keys[0])} is not known: the list takes ${known}`
      : undefined,
});

// What the texts stand for, for the OpenAPI document only: the generator runs this; a bundle drops
// it whole (a pure call whose result nobody reads)
/* @__PURE__ */ (() => {
  z.globalRegistry.add(limitText, {
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: LIST_LIMIT_MAX,
    default: LIST_LIMIT_DEFAULT,
    description: `The maximum number of plants in the page, in plain decimal digits, given once. 0, a negative number, more than ${LIST_LIMIT_MAX}, a fraction or text answer 400 naming \`limit\`.`,
    examples: [LIST_LIMIT_DEFAULT],
  });
  z.globalRegistry.add(tagText, {
    description:
      "Only the caller's plants whose `tag` is exactly this (no prefix, no case folding), oldest first and paged the same way. Empty or given twice answers 400 naming `tag`.",
    examples: ['indoor'],
  });
  z.globalRegistry.add(cursorText, {
    maxLength: MAX_CURSOR_LENGTH,
    description:
      "Where the page starts: opaque, copied from the previous page's `Link` header, never made by hand. One that is altered, cut short, another caller's or from another list (another `tag`, or none) answers 400 naming `cursor`.",
  });
})();
export type ListQuery = z.infer<typeof ListQuery>;
