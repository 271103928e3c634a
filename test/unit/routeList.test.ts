// A route is four hand-edited places: its schema, its route file, its handler and its line in the
// route list (lib/routes/routeList.ts). Every other place follows from the list, and here each one
// is checked to: serverless.yml's function (handler, event, grants), CORS's methods, the bench's
// floor and request, and the README's route table. (The OpenAPI generator refuses a route without
// its words in infra/openapi/operations/: test/unit/openapi.test.ts.)
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROUTE_NAMES, ROUTES, routeKey } from '#lib/routes/routeList.ts';
import { requests } from '../../bench/requests.mjs';
import { repoRoot } from '../../infra/local/paths.ts';

const require = createRequire(import.meta.url);
type Resolver = (options: {
  resolveVariable: (name: string) => Promise<unknown>;
}) => Promise<unknown>;
const routeFunctions: Resolver = require('../../infra/routeFunctions.cjs');
const cors: Resolver = require('../../infra/cors.cjs');

describe('serverless.yml', () => {
  it('deploys the functions the route list generates, beside the others', () => {
    const { functions } = parse(readFileSync(join(repoRoot, 'serverless.yml'), 'utf8'), {
      logLevel: 'error',
    });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: serverless.yml's own variable syntax
    expect(functions[0]).toBe('${file(infra/routeFunctions.cjs)}');
    // no route is written by hand beside the generated ones
    for (const others of functions.slice(1)) {
      expect(Object.keys(others).filter((name) => name in ROUTES)).toEqual([]);
    }
  });

  it("gives each route its handler, its event, its tables' settings and exactly its table actions", async () => {
    const settings: Record<string, Record<string, string>> = {
      'self:custom.environment.route': { LOG_LEVEL: 'INFO' },
      'self:custom.environment.plantsTable': { PLANTS_TABLE: 'plant-store-dev-plants' },
      'self:custom.environment.webhooksTable': { WEBHOOKS_TABLE: 'plant-store-dev-webhooks' },
      'self:custom.environment.endpointDeliveryQueue': { ENDPOINT_DELIVERY_QUEUE_URL: 'queue-url' },
      'self:custom.environment.endpointUrls': { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' },
    };
    const generated = await routeFunctions({
      resolveVariable: async (name) => {
        expect(Object.keys(settings)).toContain(name);
        return settings[name];
      },
    });
    const plants = { LOG_LEVEL: 'INFO', PLANTS_TABLE: 'plant-store-dev-plants' };
    const webhooks = { LOG_LEVEL: 'INFO', WEBHOOKS_TABLE: 'plant-store-dev-webhooks' };
    const plantsTable = { 'Fn::GetAtt': ['PlantsTable', 'Arn'] };
    const webhooksTable = { 'Fn::GetAtt': ['WebhooksTable', 'Arn'] };
    const sends = { ...webhooks, ENDPOINT_DELIVERY_QUEUE_URL: 'queue-url' };
    // only the routes that check where an endpoint points read whether it may be private
    const checksUrls = { ...webhooks, WEBHOOK_ALLOW_PRIVATE_URLS: 'false' };
    const sendGrant = {
      Effect: 'Allow',
      Action: ['sqs:SendMessage'],
      Resource: [{ 'Fn::GetAtt': ['EndpointDeliveryQueue', 'Arn'] }],
    };
    const grant = (action: string, on: unknown) => ({
      Effect: 'Allow',
      Action: [`dynamodb:${action}`],
      Resource: [on],
    });
    const fn = (
      name: string,
      method: string,
      path: string,
      environment: unknown,
      grants: unknown[],
    ) => [
      name,
      {
        handler: `handlers/${name}.handler`,
        environment,
        events: [{ httpApi: { method, path } }],
        iamRoleStatements: grants,
      },
    ];
    expect(generated).toEqual(
      Object.fromEntries([
        // a Query of the plants reads the table's indexes, never the table
        fn('listPlants', 'GET', '/plants', plants, [
          grant('Query', { 'Fn::Join': ['/', [plantsTable, 'index', '*']] }),
        ]),
        fn('createPlant', 'POST', '/plants', plants, [grant('PutItem', plantsTable)]),
        fn('getPlant', 'GET', '/plants/{id}', plants, [grant('GetItem', plantsTable)]),
        fn('updatePlant', 'PUT', '/plants/{id}', plants, [grant('UpdateItem', plantsTable)]),
        fn('patchPlant', 'PATCH', '/plants/{id}', plants, [grant('UpdateItem', plantsTable)]),
        fn('deletePlant', 'DELETE', '/plants/{id}', plants, [grant('DeleteItem', plantsTable)]),
        // one caller's endpoints are one partition of the table: a Query of the table
        fn('listEndpoints', 'GET', '/webhooks', webhooks, [grant('Query', webhooksTable)]),
        fn('createEndpoint', 'POST', '/webhooks', checksUrls, [
          grant('PutItem', webhooksTable),
          grant('UpdateItem', webhooksTable),
        ]),
        fn('getEndpoint', 'GET', '/webhooks/{id}', webhooks, [grant('GetItem', webhooksTable)]),
        fn('updateEndpoint', 'PUT', '/webhooks/{id}', checksUrls, [
          grant('UpdateItem', webhooksTable),
        ]),
        fn('deleteEndpoint', 'DELETE', '/webhooks/{id}', webhooks, [
          grant('DeleteItem', webhooksTable),
          grant('UpdateItem', webhooksTable),
        ]),
        fn('rotateEndpointSecret', 'POST', '/webhooks/{id}/secret', webhooks, [
          grant('GetItem', webhooksTable),
          grant('UpdateItem', webhooksTable),
        ]),
        // a ping and a resend count themselves in the endpoint's minute and send the delivery to
        // the endpoint-deliveries queue
        fn('pingEndpoint', 'POST', '/webhooks/{id}/ping', sends, [
          grant('GetItem', webhooksTable),
          grant('UpdateItem', webhooksTable),
          sendGrant,
        ]),
        fn('listEndpointAttempts', 'GET', '/webhooks/{id}/attempts', webhooks, [
          grant('GetItem', webhooksTable),
          grant('Query', webhooksTable),
        ]),
        fn('resendEndpointEvent', 'POST', '/webhooks/{id}/attempts/{webhookId}/resend', sends, [
          grant('GetItem', webhooksTable),
          grant('UpdateItem', webhooksTable),
          sendGrant,
        ]),
      ]),
    );
  });
});

describe.each(ROUTE_NAMES)('the route %s', (name) => {
  it('has its handler and its route file', () => {
    expect(existsSync(join(repoRoot, 'handlers', `${name}.ts`)), `handlers/${name}.ts`).toBe(true);
    expect(existsSync(join(repoRoot, 'lib', 'routes', `${name}.ts`)), `lib/routes/${name}.ts`).toBe(
      true,
    );
  });

  it('is allowed to browsers by CORS, when a deployment allows origins', async () => {
    const allowed = (await cors({
      resolveVariable: async () => 'https://app.example.com',
    })) as { allowedMethods: string[] };
    expect(allowed.allowedMethods).toContain(ROUTES[name].method);
  });

  it('is measured by the bench: a floor of its own and a request', () => {
    const floor = join(repoRoot, 'bench', 'baseline', `${name}.ts`);
    expect(existsSync(floor), `write its bare floor in bench/baseline/${name}.ts`).toBe(true);
    expect(requests[name], `give it a request in bench/requests.mjs`).toBeTypeOf('function');
  });
});

it("the README's route table lists every route of the list, and no other", () => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## The API'));
  const rows = [...section.matchAll(/^\| `([A-Z]+ \/[^`]*)` +\|/gm)].map((row) => row[1]);
  expect(rows.sort()).toEqual(ROUTE_NAMES.map((route) => routeKey(ROUTES[route])).sort());
});
