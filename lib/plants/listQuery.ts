// The query of GET /plants, and what another list's query takes of it (the limit's rule, the
// cursor's text, the refusal of an unknown parameter). It arrives as text: each parameter has one
// canonical spelling, so that one page has one address, and any other parameter is refused: a
// filter the service does not know is never silently ignored.
import * as z from 'zod/mini';
import { MAX_CURSOR_LENGTH } from '#lib/plants/listCursor.ts';

export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;
const limitRule = `limit must be an integer from 1 to ${LIST_LIMIT_MAX}, given once`;

/** The `limit` of a page of `things`: 1 to LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT when left out. */
export const pageLimit = (things: string) => {
  const text = z
    .string({ error: limitRule })
    .check(
      z.refine(
        (digits) => /^[1-9][0-9]{0,2}$/.test(digits) && Number(digits) <= LIST_LIMIT_MAX,
        limitRule,
      ),
    );
  // what the text stands for, for the OpenAPI document only: a bundle drops it (a pure call whose
  // result nobody reads)
  /* @__PURE__ */ z.globalRegistry.add(text, {
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: LIST_LIMIT_MAX,
    default: LIST_LIMIT_DEFAULT,
    description: `The maximum number of ${things} in the page, in plain decimal digits, given once. 0, a negative number, more than ${LIST_LIMIT_MAX}, a fraction or text answer 400 naming \`limit\`.`,
    examples: [LIST_LIMIT_DEFAULT],
  });
  return z._default(z.pipe(text, z.transform(Number)), LIST_LIMIT_DEFAULT);
};

/** The `cursor` of a page; `refusedWhen` says which cursors answer 400 naming it. */
export const pageCursor = (refusedWhen: string) => {
  const text = z.string({
    error: 'cursor must be given once, as the Link header of the previous page has it',
  });
  /* @__PURE__ */ z.globalRegistry.add(text, {
    maxLength: MAX_CURSOR_LENGTH,
    description: `Where the page starts: opaque, copied from the previous page's \`Link\` header, never made by hand. One that is altered, cut short, ${refusedWhen} answers 400 naming \`cursor\`.`,
  });
  return z.optional(text);
};

/** A list's query of these parameters: any other is refused, naming those it takes. */
export const strictQuery = <Shape extends z.core.$ZodLooseShape>(
  list: string,
  parameters: Shape,
) => {
  const names = Object.keys(parameters);
  const known = `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return z.strictObject(parameters, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `The query parameter ${JSON.stringify(issue.keys[0])} is not known: ${list} takes ${known}`
        : undefined,
  });
};

const tagRule = 'tag must be the tag of the plants to list: not empty, given once';
const tagText = z.string({ error: tagRule }).check(z.minLength(1, tagRule));
/* @__PURE__ */ z.globalRegistry.add(tagText, {
  description:
    "Only the caller's plants whose `tag` is exactly this (no prefix, no case folding), oldest first and paged the same way. Empty or given twice answers 400 naming `tag`.",
  examples: ['indoor'],
});

export const ListQuery = strictQuery('the list', {
  limit: pageLimit('plants'),
  tag: z.optional(tagText),
  cursor: pageCursor("another caller's or from another list (another `tag`, or none)"),
});
export type ListQuery = z.infer<typeof ListQuery>;
