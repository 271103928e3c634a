// The published contract (openapi.yaml), OpenAPI 3.1: its schemas are Zod's own JSON Schema output,
// named by the schemas' registry; each route (infra/routes.ts) is an operation: where it is, its
// parameters, request body and error statuses from its definition; its words and its own statuses
// from operations/<resource>.ts.
import { stringify } from 'yaml';
import { Attempt, QueuedDelivery } from '#lib/endpointDeliveries/answerSchemas.ts';
import { Endpoint, EndpointSecret, EndpointWithSecret } from '#lib/endpoints/answerSchemas.ts';
import { EndpointPath, EndpointUpdate, NewEndpoint } from '#lib/endpoints/requestSchemas.ts';
import { ErrorBody } from '#lib/http/errorBody.ts';
import { PlantPath } from '#lib/plants/params.ts';
import { IdentifiedPlant, NewPlant, Plant, PlantPatch, PlantUpdate } from '#lib/plants/schemas.ts';
import type { RouteName } from '#lib/routes/routeList.ts';
import { type RouteModule, routeModules } from '../routes.ts';
import { type ErrorStatus, responsesOf } from './errors.ts';
import * as plants from './operations/plants.ts';
import * as endpoints from './operations/webhooks.ts';
import { componentHeaders, type Examples, examplesOf } from './responses.ts';
import {
  type Json,
  jsonSchema,
  parameterRef,
  parametersOf,
  type RouteSchemas,
  schemaName,
  schemaRef,
} from './schemas.ts';
import { webhooks } from './webhooks.ts';

/** The document's file, at the repository root. */
export const OPENAPI_FILE = 'openapi.yaml';

/** What operations/<resource>.ts says of a route, by its function's name: its words, its own. */
export interface OperationDescription {
  summary: string;
  description: string;
  /** Parameters the route reads besides its schemas' (a header its logic reads). */
  parameters?: Json[];
  requestBody?: { description: string; examples: Examples };
  /** Its successes and its own errors (409, 412, 429...; or its wording of one its route decides). */
  responses: Partial<
    Record<200 | 201 | 202 | 204, Json> & Record<400 | 404 | 409 | 412 | 415 | 429, ErrorStatus>
  >;
}

/** The named schemas, in the document's order: request bodies, answers and the Error object. */
const SCHEMAS = [
  ...[NewPlant, Plant, PlantUpdate, PlantPatch, IdentifiedPlant],
  ...[NewEndpoint, EndpointUpdate, Endpoint, EndpointWithSecret, EndpointSecret],
  ...[QueuedDelivery, Attempt, ErrorBody],
];

/** Path schemas of several routes, each of one parameter, named once. */
const SHARED_PATHS = { PlantId: PlantPath, EndpointId: EndpointPath };

// each resource (its paths' first segment, its tag): its tag's and routes' words, shared wordings
const RESOURCES = { plants, webhooks: endpoints };

/** Every route's words: a route without them fails the typecheck. */
export const OPERATIONS: Record<RouteName, OperationDescription> = {
  ...plants.operations,
  ...endpoints.operations,
};

/** A route (lib/routes/<name>.ts) as an OpenAPI Operation Object; it cannot lack its words. */
export const operationOf = ([name, route]: [string, RouteModule & RouteSchemas]): Json => {
  const tag = route.path.split('/')[1] as keyof typeof RESOURCES;
  const operation = (OPERATIONS as Record<string, OperationDescription>)[name];
  if (!operation)
    throw new Error(
      `lib/routes/${name}.ts is a route: describe it in infra/openapi/operations/${tag}.ts`,
    );
  const { summary, description, parameters: read = [], requestBody } = operation;
  const { params, query, body } = route;
  const sharedPath = Object.entries(SHARED_PATHS).find(([, shared]) => shared === params)?.[0];
  const parameters = [
    ...(sharedPath ? [parameterRef(sharedPath)] : params ? parametersOf(params, 'path') : []),
    ...(query ? parametersOf(query, 'query') : []),
    ...read,
  ];
  if (Boolean(body) !== Boolean(requestBody))
    throw new Error(`${name}: describe a request body exactly when the route reads one`);
  return {
    tags: [tag],
    operationId: name,
    summary,
    description,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body &&
      requestBody && {
        requestBody: {
          description: requestBody.description,
          required: true,
          content: Object.fromEntries(
            (body.mediaTypes ?? ['application/json']).map((type) => [
              type,
              { schema: schemaRef(body.schema), examples: examplesOf(requestBody.examples) },
            ]),
          ),
        },
      }),
    responses: responsesOf(route, RESOURCES[tag].errors(route), operation.responses),
  };
};

/** The OpenAPI document, as a plain object in the order it is written. */
export const openApiDocument = async (): Promise<Json> => {
  const routes: [string, RouteModule & RouteSchemas][] = await routeModules();
  const paths: Record<string, Json> = {};
  for (const [name, route] of routes) {
    const { method, path } = route;
    paths[path] = { ...paths[path], [method.toLowerCase()]: operationOf([name, route]) };
  }
  // a request body is what a client may send (Zod's input view), any other what the service sends
  const bodies = new Set(routes.map(([, route]) => route.body?.schema));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Plant Store API',
      version: '1.0.0',
      description:
        "A plant store: add, list, read, update and delete your plants. Every request carries a bearer token (a JWT); a plant belongs to the caller who created it, and another caller's plant answers as a missing one. Every error answers `application/json` with the Error object, whose `error` is the HTTP status code. Checks run in this order: authentication, media type, size, JSON, fields, store; a rejected request writes nothing. A path the API does not have answers 404, and a method a path does not have answers 405 with `Allow`, both with the Error object.",
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'http://127.0.0.1:3000', description: 'The local run (npm start)' }],
    security: [{ bearerAuth: [] }],
    tags: Object.entries(RESOURCES).map(([name, { tag }]) => ({ name, description: tag })),
    paths,
    webhooks,
    components: {
      schemas: Object.fromEntries(
        SCHEMAS.map((schema) => [
          schemaName(schema),
          jsonSchema(schema, bodies.has(schema) ? 'input' : 'output'),
        ]),
      ),
      parameters: Object.fromEntries(
        Object.entries(SHARED_PATHS).map(([name, path]) => [name, parametersOf(path, 'path')[0]]),
      ),
      headers: componentHeaders,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A JWT signed with RS256 or ES256 by the configured issuer, for one of the configured audiences, with `exp` and a `sub` (the caller: stored with each plant as its creator). A deployment may require a scope for reading and one for writing (in `scope` or `scp`).',
        },
      },
    },
  };
};

/** The document as openapi.yaml holds it: the same text for the same code, ending in a newline. */
export const openApiYaml = async (): Promise<string> =>
  `# Generated by \`npm run openapi\` from the routes (lib/routes/), their schemas and infra/openapi/: do not edit.\n${stringify(
    await openApiDocument(),
    // no folded lines (a changed word re-wraps no paragraph) and no YAML anchors for repeated parts
    { lineWidth: 0, aliasDuplicateObjects: false },
  )}`;
