// The bench's floors (bench/baseline/<route>.ts) answer the bench's request (bench/requests.mjs)
// as the route does: the same status and body, on DynamoDB Local seeded as the bench seeds it
// (bench/seed.ts), SQS answered by the bench's stubs. A floor that drifts from its route would
// measure another job; here it fails, naming the route. Ids, secrets and times made afresh are
// compared by their form.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROUTES, type RouteName } from '#lib/routes/routeList.ts';
import { stubItems } from '../../bench/endpointItems.ts';
import { functions } from '../../bench/functions.ts';
import { functionEnv } from '../../bench/measure.ts';
import { CALLER, requests } from '../../bench/requests.mjs';
import { prepareRun, seedStore } from '../../bench/seed.ts';
import { PLANTS_TABLE, WEBHOOKS_TABLE } from '../../bench/stack.ts';
import { localDynamoClient } from '../../infra/local/dynamoClient.ts';
import { repoRoot } from '../../infra/local/paths.ts';
import { ensureTable } from '../../infra/local/tables.ts';
import { httpApiEvent, lambdaContext } from '../support/events.ts';
import { type JwksServer, startJwksServer } from '../support/jwksServer.ts';
import { jwksOf, makeKey, signToken, TEST_AUDIENCE, TEST_ISSUER } from '../support/tokens.ts';

const endpoint = inject('dynamodbEndpoint');
type Handler = (event: unknown, context: unknown) => Promise<APIGatewayProxyStructuredResultV2>;
/** The routes the bench measures: each has its floor and its request. */
const routes = functions.filter((name): name is RouteName => name in ROUTES);

/** A value made afresh (an endpoint's or a webhook's id, a secret, a time) as its form alone. */
const formOf = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(formOf);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, formOf(v)]));
  if (typeof value !== 'string') return value;
  return (
    [/^ep_[\w-]{22}$/, /^msg_[\w-]+$/, /^whsec_[\w+/=]+$/, /^\d{4}-\d\d-\d\dT[\d:.]+Z$/].find(
      (form) => form.test(value),
    ) ?? value
  ).toString();
};

describe("each floor answers the bench's request as its route does", () => {
  const dynamoClient = localDynamoClient(endpoint);
  const store = { dynamoClient, stubs: { WEBHOOK_URL: '' } };
  let work: string;
  let jwks: JwksServer;
  let stubs: ReturnType<typeof spawn>;
  let token: string;

  beforeAll(async () => {
    await ensureTable(dynamoClient, 'PlantsTable', PLANTS_TABLE);
    await ensureTable(dynamoClient, 'WebhooksTable', WEBHOOKS_TABLE);
    const key = await makeKey('ES256');
    jwks = await startJwksServer(await jwksOf(key));
    token = await signToken(key, { subject: CALLER });
    // SQS (the ping's and the resend's queue) and the receiver, as the bench stubs them
    stubs = spawn(process.execPath, [join(repoRoot, 'bench', 'probe.mjs'), 'stubs'], {
      env: { PATH: process.env.PATH, WEBHOOKS_TABLE, BENCH_STUB_ITEMS: stubItems() },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const [line] = (await once(createInterface({ input: stubs.stdout as never }), 'line')) as [
      string,
    ];
    const { DYNAMODB_ENDPOINT: _, ...urls } = JSON.parse(line) as Record<string, string>;
    store.stubs.WEBHOOK_URL = urls.WEBHOOK_URL ?? '';
    work = mkdtempSync(join(tmpdir(), 'floors-'));
    // what the bench gives both, read at import
    Object.assign(process.env, functionEnv(work, jwks.url, ''), urls, {
      DYNAMODB_ENDPOINT: endpoint,
      AUTH_ISSUER: TEST_ISSUER,
      AUTH_AUDIENCE: TEST_AUDIENCE,
    });
    await seedStore(store);
  });
  afterAll(async () => {
    stubs.stdin?.end();
    await jwks.stop();
    for (const TableName of [PLANTS_TABLE, WEBHOOKS_TABLE])
      await dynamoClient.send(new DeleteTableCommand({ TableName }));
    dynamoClient.destroy();
    rmSync(work, { recursive: true, force: true });
  });

  /** The status and the body's form that `file`'s handler answers the bench's request of `name`. */
  const answerOf = async (file: string, name: RouteName, id: number) => {
    const { method, path: template } = ROUTES[name];
    const { path = {}, query = '', body } = requests[name]?.(id) ?? {};
    const rawPath = template.replace(/\{(\w+)\}/g, (_, p: string) => path[p] ?? '');
    const event = httpApiEvent({
      method,
      path: rawPath,
      route: `${method} ${template}`,
      ...(Object.keys(path).length > 0 ? { pathParameters: path } : {}),
      query,
      headers: {
        authorization: `Bearer ${token}`,
        host: 'bench',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : null,
    });
    const { handler } = (await import(file)) as { handler: Handler };
    const response = await handler(event, lambdaContext());
    return {
      status: response.statusCode,
      body: formOf(response.body ? JSON.parse(response.body) : undefined),
    };
  };
  const ours = (name: RouteName) => join(repoRoot, 'handlers', `${name}.ts`);

  it.each(routes)('%s', async (name) => {
    const answers = [];
    // each on a plant or endpoint of its own where the request takes one (1,000 and 2,000)
    for (const [file, id] of [
      [ours(name), 1000],
      [join(repoRoot, 'bench', 'baseline', `${name}.ts`), 2000],
    ] as const) {
      await prepareRun(store, name, [id], 1);
      answers.push(await answerOf(file, name, id));
    }
    const [answer, floor] = answers;
    expect(answer?.status, `${name}: ours answers 2xx`).toBeLessThan(300);
    expect(floor, `${name}'s floor (bench/baseline/${name}.ts)`).toEqual(answer);
  });

  it.each(['pingEndpoint', 'resendEndpointEvent'] as const)(
    "prepares a run of %s with room past the caller's 10 a minute",
    async (name) => {
      await prepareRun(store, name, [3000], 12);
      for (let id = 3000; id < 3012; id++)
        expect((await answerOf(ours(name), name, id)).status).toBe(202);
    },
  );
});
