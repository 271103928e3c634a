// The query of GET /plants. It arrives as text: each parameter has one canonical spelling, so that
// one page has one address.
import * as z from 'zod/mini';

export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;
const limitRule = `limit must be an integer from 1 to ${LIST_LIMIT_MAX}, given once`;

export const ListQuery = z.object({
  limit: z._default(
    z.pipe(
      z
        .string({ error: limitRule })
        .check(
          z.refine(
            (text) => /^[1-9][0-9]{0,2}$/.test(text) && Number(text) <= LIST_LIMIT_MAX,
            limitRule,
          ),
        ),
      z.transform(Number),
    ),
    LIST_LIMIT_DEFAULT,
  ),
  cursor: z.optional(
    z.string({
      error: 'cursor must be given once, as the Link header of the previous page has it',
    }),
  ),
});
export type ListQuery = z.infer<typeof ListQuery>;
