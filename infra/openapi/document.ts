// The published contract: the OpenAPI 3.1 document of the service as built. Its schemas are Zod's
// own JSON Schema output for lib/plants/schemas.ts (the schemas that validate requests), so they
// cannot drift from the code. Each route of the route list (lib/routes/routeList.ts) is an
// operation: where it is from the list; its parameters and request body from the schemas its route
// validates with; its words from operations/<function name>.ts. What operations share (headers,
// API.md's error statuses) is in shared.ts. `npm run openapi` writes it to openapi.yaml.
import { stringify } from 'yaml';
import { Attempt, QueuedDelivery } from '#lib/endpointDeliveries/answerSchemas.ts';
import { Endpoint, EndpointSecret, EndpointWithSecret } from '#lib/endpoints/answerSchemas.ts';
import { EndpointPath, EndpointUpdate, NewEndpoint } from '#lib/endpoints/requestSchemas.ts';
import { ErrorBody } from '#lib/http/errorBody.ts';
import { PlantPath } from '#lib/plants/params.ts';
import { IdentifiedPlant, NewPlant, Plant, PlantPatch, PlantUpdate } from '#lib/plants/schemas.ts';
import { ROUTE_NAMES, ROUTES, type RouteName, routeKey } from '#lib/routes/routeList.ts';
import { endpointEvents } from './operations/endpointEvents.ts';
import { plantAdded } from './operations/plantAdded.ts';
import {
  componentHeaders,
  type Json,
  jsonSchema,
  type OperationDescription,
  parameterRef,
  parametersOf,
  schemaRef,
} from './shared.ts';

/** The document's file, at the repository root. */
export const OPENAPI_FILE = 'openapi.yaml';

/** The named schemas: request bodies as a client may send them, answers as the service sends them. */
const SCHEMAS = {
  NewPlant: { schema: NewPlant, io: 'input' },
  Plant: { schema: Plant, io: 'output' },
  PlantUpdate: { schema: PlantUpdate, io: 'input' },
  PlantPatch: { schema: PlantPatch, io: 'input' },
  PlantWithId: { schema: IdentifiedPlant, io: 'output' },
  NewEndpoint: { schema: NewEndpoint, io: 'input' },
  EndpointUpdate: { schema: EndpointUpdate, io: 'input' },
  Endpoint: { schema: Endpoint, io: 'output' },
  EndpointWithSecret: { schema: EndpointWithSecret, io: 'output' },
  EndpointSecret: { schema: EndpointSecret, io: 'output' },
  QueuedDelivery: { schema: QueuedDelivery, io: 'output' },
  Attempt: { schema: Attempt, io: 'output' },
  Error: { schema: ErrorBody, io: 'output' },
} as const;

/** Path schemas of several routes, each of one parameter, named once. */
const SHARED_PATHS = { PlantId: PlantPath, EndpointId: EndpointPath };

/** The words of a route, from operations/<name>.ts: a route without them fails the generator. */
const descriptionOf = async (name: RouteName): Promise<OperationDescription> => {
  let described: { operation?: OperationDescription };
  try {
    described = await import(`./operations/${name}.ts`);
  } catch (cause) {
    const missing = `${name} is in the route list: describe it in infra/openapi/operations/${name}.ts`;
    throw new Error(missing, { cause });
  }
  const { operation } = described;
  if (operation?.route.name !== routeKey(ROUTES[name])) {
    throw new Error(
      `infra/openapi/operations/${name}.ts must export the operation of ${name}'s route`,
    );
  }
  return operation;
};

/** One route as an OpenAPI Operation Object. */
const operationOf = async (name: RouteName): Promise<Json> => {
  const {
    route,
    summary,
    description,
    parameters: read = [],
    requestBody,
    responses,
  } = await descriptionOf(name);
  const { path, query, body } = route;
  const sharedPath = Object.entries(SHARED_PATHS).find(([, shared]) => shared === path)?.[0];
  const parameters = [
    ...(sharedPath ? [parameterRef(sharedPath)] : path ? parametersOf(path, 'path') : []),
    ...(query ? parametersOf(query, 'query') : []),
    ...read,
  ];
  if (Boolean(body) !== Boolean(requestBody)) {
    throw new Error(`${name}: describe a request body exactly when the route reads one`);
  }
  const bodySchema = Object.entries(SCHEMAS).find(([, { schema }]) => schema === body?.schema)?.[0];
  if (body && !bodySchema) throw new Error(`${name}'s body schema has no name in SCHEMAS`);
  return {
    // the path's first segment: plants, webhooks
    tags: [ROUTES[name].path.split('/')[1]],
    operationId: name,
    summary,
    description,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(bodySchema && requestBody
      ? {
          requestBody: {
            description: requestBody.description,
            required: true,
            content: Object.fromEntries(
              (body?.mediaTypes ?? ['application/json']).map((mediaType) => [
                mediaType,
                { schema: schemaRef(bodySchema), examples: requestBody.examples },
              ]),
            ),
          },
        }
      : {}),
    responses,
  };
};

const paths = async () => {
  const byPath: Record<string, Json> = {};
  for (const name of ROUTE_NAMES) {
    const { method, path } = ROUTES[name];
    byPath[path] = { ...byPath[path], [method.toLowerCase()]: await operationOf(name) };
  }
  return byPath;
};

/** The OpenAPI document, as a plain object in the order it is written. */
export const openApiDocument = async (): Promise<Json> => ({
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
  tags: [
    { name: 'plants', description: 'The plants in the store' },
    {
      name: 'webhooks',
      description: 'Your own webhook endpoints, and what the service POSTs to a receiver of yours',
    },
  ],
  paths: await paths(),
  webhooks: { [plantAdded.name]: plantAdded.operation, ...endpointEvents },
  components: {
    schemas: Object.fromEntries(
      Object.entries(SCHEMAS).map(([name, { schema, io }]) => [name, jsonSchema(schema, io)]),
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
          'A JWT signed with RS256 or ES256 by the configured issuer, for the configured audience, with `exp` and a `sub` (the caller: stored with each plant as its creator). A deployment may require a scope for reading and one for writing (in `scope` or `scp`).',
      },
    },
  },
});

/** The document as openapi.yaml holds it: the same text for the same code, ending in a newline. */
export const openApiYaml = async (): Promise<string> =>
  `# Generated by \`npm run openapi\` from lib/routes/routeList.ts, the routes' schemas and infra/openapi/: do not edit.\n${stringify(
    await openApiDocument(),
    // no folded lines (a changed word re-wraps no paragraph) and no YAML anchors for repeated parts
    { lineWidth: 0, aliasDuplicateObjects: false },
  )}`;
