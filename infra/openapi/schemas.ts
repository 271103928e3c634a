// The document's schemas and parameters, as Zod writes them (its JSON Schema output), named as the
// schemas' registry names them, and the references to them.
import * as z from 'zod/mini';
import { ErrorBody } from '#lib/http/errorBody.ts';
import { schemaNames } from '#lib/plants/schemas.ts';
import type { RouteDefinition } from '#lib/routes/route.ts';

export type Json = Record<string, unknown>;

/** The schemas a route validates with: its body's, its path parameters' and its query's. */
export type RouteSchemas = Pick<
  RouteDefinition<unknown, never, unknown, unknown, unknown, unknown, unknown>,
  'body' | 'params' | 'query'
>;

// the Error object's name: lib/http/errorBody.ts, which every function loads, leaves it to the document
schemaNames.add(ErrorBody, { id: 'Error' });

// a schema as OpenAPI 3.1 embeds it (JSON Schema 2020-12): a request body in Zod's input view
// (other properties allowed, ignored), a response in its output view (exactly those declared)
export const jsonSchema = (schema: z.ZodMiniType, io: 'input' | 'output'): Json => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12' });
  return rest;
};

/** A schema's name in components.schemas, as its registry metadata gives it. */
export const schemaName = (schema: z.core.$ZodType): string => {
  const name = schemaNames.get(schema)?.id;
  if (!name) throw new Error('a schema the document refers to has no name in schemaNames');
  return name;
};

/** A reference to a named schema, or to an array of one (`z.array(schema)`). */
export const schemaRef = (schema: z.core.$ZodType): Json =>
  schema instanceof z.ZodMiniArray
    ? { type: 'array', items: schemaRef(schema._zod.def.element) }
    : { $ref: `#/components/schemas/${schemaName(schema)}` };
export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** The message a schema refuses this input with: what the service answers it (a 400). */
export const refusalOf = (schema: z.ZodMiniType, input: unknown): string => {
  const message = schema.safeParse(input).error?.issues[0]?.message;
  if (!message) throw new Error(`the example ${JSON.stringify(input)} is not refused`);
  return message;
};

/** A schema's first example, as its registry metadata gives it. */
export const exampleOf = <T>(schema: z.ZodMiniType<T>): T => {
  const [example] = (z.globalRegistry.get(schema)?.examples ?? []) as T[];
  if (example === undefined) throw new Error('a schema the examples take has no example');
  return example;
};

/** A path or query schema's parameters: each text's JSON Schema, description and first example. */
export const parametersOf = (schema: z.ZodMiniType, location: 'path' | 'query'): Json[] => {
  const { properties = {}, required = [] } = jsonSchema(schema, 'input') as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, { description, examples, ...rest }]) => ({
    name,
    in: location,
    required: location === 'path' || required.includes(name),
    description,
    schema: rest,
    ...(Array.isArray(examples) ? { example: examples[0] } : {}),
  }));
};
