// Every place a new route needs, checked here in seconds (docs/contributing.md, "Add a route"):
// written by hand: its line in lib/routes/routeList.ts, its route file lib/routes/<name>.ts, its
// handler handlers/<name>.ts, its words infra/openapi/operations/<name>.ts (then `npm run openapi`,
// which writes the README's route table too). Everything else follows from its line, and is checked
// here against it: serverless.yml's function (handler, event, settings, grants), CORS's methods; the
// deployment test (test/e2e/deployment.test.ts) derives its role's grants from the same line. The
// bench measures a route once it has a floor and a request (bench/functions.ts); neither is required.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  ROUTE_NAMES,
  ROUTES,
  type RouteEntry,
  type RouteName,
  routeKey,
  type Table,
  type TableAction,
} from '#lib/routes/routeList.ts';
import { requests } from '../../bench/requests.mjs';
import { repoRoot } from '../../infra/local/paths.ts';
import { README_FILE, readmeWithRouteTable } from '../../infra/openapi/routeTable.ts';

const require = createRequire(import.meta.url);
type Resolver = (options: {
  resolveVariable: (name: string) => Promise<unknown>;
}) => Promise<unknown>;
const routeFunctions: Resolver = require('../../infra/routeFunctions.cjs');
const cors: Resolver = require('../../infra/cors.cjs');
const TABLE_RESOURCES: Record<Table, string> = { plants: 'PlantsTable', webhooks: 'WebhooksTable' };

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
    // one route given a memory of its own, the others the provider's
    const memorySizes = { pingEndpoint: 1024 };
    const generated = await routeFunctions({
      resolveVariable: async (name) => {
        if (name === 'self:custom.memorySize') return memorySizes;
        expect(Object.keys(settings)).toContain(name);
        return settings[name];
      },
    });
    // each route's line makes its function: the settings of its tables, queues and groups, and a
    // role with exactly its table actions; a Query of the plants reads the table's indexes, never
    // the table, a Query of the webhooks table one caller's partition of it
    const arn = (table: Table) => ({ 'Fn::GetAtt': [TABLE_RESOURCES[table], 'Arn'] });
    const grant = (table: Table, action: TableAction) => ({
      Effect: 'Allow',
      Action: [`dynamodb:${action}`],
      Resource: [
        table === 'plants' && action === 'Query'
          ? { 'Fn::Join': ['/', [arn(table), 'index', '*']] }
          : arn(table),
      ],
    });
    const functionOf = (name: RouteName) => {
      const { method, path, tables, queues = [], settings: groups = [] }: RouteEntry = ROUTES[name];
      const used = Object.keys(tables) as Table[];
      return {
        handler: `handlers/${name}.handler`,
        ...(name === 'pingEndpoint' ? { memorySize: 1024 } : {}),
        environment: Object.assign(
          {},
          settings['self:custom.environment.route'],
          ...used.map((table) => settings[`self:custom.environment.${table}Table`]),
          ...queues.map(() => settings['self:custom.environment.endpointDeliveryQueue']),
          ...groups.map((group) => settings[`self:custom.environment.${group}`]),
        ),
        events: [{ httpApi: { method, path } }],
        iamRoleStatements: [
          ...used.flatMap((table) => (tables[table] ?? []).map((action) => grant(table, action))),
          ...queues.map(() => ({
            Effect: 'Allow',
            Action: ['sqs:SendMessage'],
            Resource: [{ 'Fn::GetAtt': ['EndpointDeliveryQueue', 'Arn'] }],
          })),
        ],
      };
    };
    expect(generated).toEqual(
      Object.fromEntries(ROUTE_NAMES.map((name) => [name, functionOf(name)])),
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

  it('has its words in the published document', () => {
    const words = join(repoRoot, 'infra', 'openapi', 'operations', `${name}.ts`);
    expect(existsSync(words), `describe it in infra/openapi/operations/${name}.ts`).toBe(true);
  });

  it('is allowed to browsers by CORS, when a deployment allows origins', async () => {
    const allowed = (await cors({
      resolveVariable: async () => 'https://app.example.com',
    })) as { allowedMethods: string[] };
    expect(allowed.allowedMethods).toContain(ROUTES[name].method);
  });
});

it("the README's route table is the one npm run openapi writes from the route list", async () => {
  const readme = readFileSync(join(repoRoot, README_FILE), 'utf8');
  expect(readme, 'run npm run openapi and commit README.md').toBe(await readmeWithRouteTable());
  const rows = [...readme.matchAll(/^\| `([A-Z]+ \/[^`]*)` \|/gm)].map((row) => row[1]);
  expect(rows.sort()).toEqual(ROUTE_NAMES.map((route) => routeKey(ROUTES[route])).sort());
});

it("the bench's floors and requests are each of a function: a route of the list, or a webhook's", () => {
  // a floor is a file of bench/baseline/ with a handler; the others are what the floors share
  const baseline = join(repoRoot, 'bench', 'baseline');
  const floors = readdirSync(baseline).filter(
    (file) =>
      file.endsWith('.ts') &&
      /export const handler\b/.test(readFileSync(join(baseline, file), 'utf8')),
  );
  for (const floor of floors) {
    expect(existsSync(join(repoRoot, 'handlers', floor)), `no function of ${floor}`).toBe(true);
  }
  expect(ROUTE_NAMES).toEqual(expect.arrayContaining(Object.keys(requests)));
});
