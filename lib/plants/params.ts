// The path parameter of the routes that address one plant: one canonical spelling, one address.
import * as z from 'zod/mini';
import { ID_MAX, ID_MIN, idRule } from '#lib/plants/ids.ts';

/** A plant's id in a path: canonical decimal (no sign on 0, no leading zeros, no fraction). */
const canonicalInteger = /^-?(0|[1-9][0-9]*)$/;
const pathIdRule = `id in the path must be ${idRule}, written in plain decimal digits`;

const idText = z
  .string({ error: pathIdRule })
  .check(
    z.refine((text) => canonicalInteger.test(text) && Math.abs(Number(text)) <= ID_MAX, pathIdRule),
  );

export const PlantPath = z.object({
  // -0 is 0
  id: z.pipe(
    idText,
    z.transform((text) => Number(text) || 0),
  ),
});

// What the text stands for, for the OpenAPI document only: the generator runs this; a bundle drops
// it whole (a pure call whose result nobody reads)
/* @__PURE__ */ (() =>
  z.globalRegistry.add(idText, {
    type: 'integer',
    format: 'int64',
    minimum: ID_MIN,
    maximum: ID_MAX,
    description: `The plant's id, in plain decimal digits (\`${canonicalInteger.source.slice(1, -1)}\`) within the id range: \`7.0\`, \`007\`, \`1e3\` or text answer 400 naming \`id\`.`,
    examples: [1],
  }))();
export type PlantPath = z.infer<typeof PlantPath>;
