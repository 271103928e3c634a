// The path and query parameters of the plant routes. They arrive as text: each has one canonical
// spelling, so that one plant or one page has one address.
import * as z from 'zod/mini';
import { ID_MAX, idRule } from '#lib/plants/ids.ts';

/** A plant's id in a path: canonical decimal (no sign on 0, no leading zeros, no fraction). */
const canonicalInteger = /^-?(0|[1-9][0-9]*)$/;
const pathIdRule = `id in the path must be ${idRule}, written in plain decimal digits`;

export const PlantPath = z.object({
  id: z.pipe(
    z
      .string({ error: pathIdRule })
      .check(
        z.refine(
          (text) => canonicalInteger.test(text) && Math.abs(Number(text)) <= ID_MAX,
          pathIdRule,
        ),
      ),
    // -0 is 0
    z.transform((text) => Number(text) || 0),
  ),
});
export type PlantPath = z.infer<typeof PlantPath>;

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
