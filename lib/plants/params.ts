// The path parameter of the routes that address one plant. It arrives as text, with one canonical
// spelling, so that one plant has one address. (The list's query: lib/plants/listQuery.ts, a module
// of its own so that only the list function builds it at its cold start.)
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
