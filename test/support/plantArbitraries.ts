// Plants, and merge patches of them, generated from the plant's own schema (its JSON Schema, as the
// OpenAPI document has it):
// a field added to lib/plants/schemas.ts is generated here without a change, so the tests that
// use these see every field, optional ones present in some runs and absent in others.
import fc from 'fast-check';
import * as z from 'zod/mini';
import { Plant, type PlantContent } from '#lib/plants/schemas.ts';

interface PropertySchema {
  type?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
}

/** Values of one property, by its JSON Schema. */
const valuesOf = (name: string, schema: PropertySchema): fc.Arbitrary<unknown> => {
  switch (schema.type) {
    case 'string':
      if (schema.format === 'date') {
        return fc
          .date({ min: new Date('1900-01-01'), max: new Date('2999-12-31'), noInvalidDate: true })
          .map((date) => date.toISOString().slice(0, 10));
      }
      if (schema.format === 'date-time') {
        return fc
          .date({ min: new Date('1900-01-01'), max: new Date('2999-12-31'), noInvalidDate: true })
          .map((date) => date.toISOString());
      }
      // any well-formed Unicode, the empty string included
      return fc.string({ unit: 'grapheme', maxLength: 12 });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    default:
      throw new Error(
        `plantArbitraries cannot generate the field ${name} (${JSON.stringify(schema)}): teach valuesOf its type`,
      );
  }
};

const contentSchema = z.toJSONSchema(Plant, { io: 'input' }) as {
  properties: Record<string, PropertySchema>;
  required?: string[];
};

/** The names of a plant's content fields, as the schema has them. */
export const plantFieldNames = Object.keys(contentSchema.properties);

/** A plant's content: every required field, and each optional one present or not. */
export const plantContent = (): fc.Arbitrary<PlantContent> =>
  fc.record(
    Object.fromEntries(
      Object.entries(contentSchema.properties).map(([name, schema]) => [
        name,
        valuesOf(name, schema),
      ]),
    ),
    { requiredKeys: contentSchema.required ?? [] },
  ) as fc.Arbitrary<PlantContent>;

/** A merge patch of a plant's content: each field left out, given a value, or (optional) null. */
export const plantPatch = (): fc.Arbitrary<Record<string, unknown>> =>
  fc.record(
    Object.fromEntries(
      Object.entries(contentSchema.properties).map(([name, schema]) => [
        name,
        contentSchema.required?.includes(name)
          ? valuesOf(name, schema)
          : fc.oneof(valuesOf(name, schema), fc.constant(null)),
      ]),
    ),
    { requiredKeys: [] },
  );

/** A plant's content after a merge patch (RFC 7396): null removes, a value replaces. */
export const patched = (content: PlantContent, patch: Record<string, unknown>): PlantContent =>
  Object.fromEntries(
    Object.entries({ ...content, ...patch }).filter(([, value]) => value !== null),
  ) as PlantContent;
