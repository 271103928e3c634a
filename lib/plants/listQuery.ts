// The query of GET /plants. It arrives as text: each parameter has one canonical spelling, so that
// one page has one address.
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

export const ListQuery = z.object({
  limit: z._default(z.pipe(limitText, z.transform(Number)), LIST_LIMIT_DEFAULT),
  cursor: z.optional(cursorText),
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
  z.globalRegistry.add(cursorText, {
    maxLength: MAX_CURSOR_LENGTH,
    description:
      "Where the page starts: opaque, copied from the previous page's `Link` header, never made by hand. One that is altered, cut short or another caller's answers 400 naming `cursor`.",
  });
})();
export type ListQuery = z.infer<typeof ListQuery>;
