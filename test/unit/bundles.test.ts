// What each function's bundle holds, built as a deploy builds it: only its own route, store
// command and stages. A function that carried another route's code would load it at every cold
// start (npm run bench measures what that costs).
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_NAMES, ROUTES, type RouteEntry, type RouteName } from '#lib/routes/routeList.ts';
import { bundleOf } from '../../bench/bundles.ts';
import { repoRoot } from '../../infra/local/paths.ts';

/**
 * The item commands a route's table actions send (a Query comes with every store): a read as its
 * command, writes to one table as theirs, or, more than one, as one transaction.
 */
const itemCommandsOf = (name: RouteName) =>
  Object.values(ROUTES[name].tables as RouteEntry['tables']).flatMap((actions = []) => {
    const writes = actions.filter((action) => action !== 'GetItem' && action !== 'Query');
    return [
      ...(actions.includes('GetItem') ? ['GetCommand'] : []),
      ...(writes.length > 1
        ? ['TransactWriteCommand']
        : writes.map((action) => action.replace(/Item$/, 'Command'))),
    ];
  });
const ALL = [...ROUTE_NAMES, 'deliverPlantAdded', 'unmatchedRoute', 'keepFailedStreamRecords'];

/** Whether the route reads a body: its definition, lib/routes/<name>.ts. */
const readsBody = async (name: RouteName) =>
  (await import(`#lib/routes/${name}.ts`)).default.body !== undefined;

const files: Record<string, string[]> = {};
const texts: Record<string, string> = {};
beforeAll(async () => {
  for (const name of ALL) {
    const bundle = await bundleOf(join(repoRoot, 'handlers', `${name}.ts`));
    files[name] = bundle.inputs;
    texts[name] = bundle.text;
  }
}, 60_000);

const matching = (name: string, pattern: RegExp) =>
  (files[name] ?? []).filter((file) => pattern.test(file));
// lib-dynamodb's paginators bring QueryCommand and ScanCommand into every bundle that uses it;
// the item commands come only with the store operation that sends them
const ITEM_COMMANDS =
  /@aws-sdk\/lib-dynamodb\/dist-es\/commands\/((Put|Get|Update|Delete|Batch\w*|Transact\w*|Execute\w*)Command)\.js$/;
const commandsOf = (name: string) =>
  matching(name, ITEM_COMMANDS).map((file) => ITEM_COMMANDS.exec(file)?.[1]);

describe('each HTTP function bundles only its own route', () => {
  it.each(ROUTE_NAMES)('%s', async (name) => {
    const { plants, webhooks }: RouteEntry['tables'] = ROUTES[name].tables;
    // its route, the replies its kind of route shares, and what the two plant updates share
    const shared = plants
      ? [
          'lib/routes/plantReplies.ts',
          ...(plants.includes('UpdateItem') ? ['lib/routes/plantUpdates.ts'] : []),
        ]
      : [
          'lib/routes/endpointReplies.ts',
          ...('queues' in ROUTES[name] ? ['lib/routes/endpointSends.ts'] : []),
        ];
    expect(matching(name, /^lib\/routes\//).sort()).toEqual(
      [
        `lib/routes/${name}.ts`,
        'lib/routes/route.ts',
        'lib/routes/routeEntry.ts',
        ...shared,
      ].sort(),
    );
    expect(commandsOf(name).sort()).toEqual(itemCommandsOf(name).sort());
    // no webhook function's settings (a top-level spread in lib/config/ once kept them all)
    for (const variable of [
      'WEBHOOK_RETRY_SCHEDULE',
      'STREAM_DEAD_LETTER_QUEUE_URL',
      'WEBHOOK_URL',
    ]) {
      expect(texts[name], `${name} bundles the webhook functions' settings`).not.toContain(
        variable,
      );
    }
    // the JSON body parser (ours and Middy's) only where there is a body to parse
    expect(matching(name, /jsonBody\.ts$|http-json-body-parser\//).sort()).toEqual(
      (await readsBody(name))
        ? ['lib/http/jsonBody.ts', 'node_modules/@middy/http-json-body-parser/index.js']
        : [],
    );
    // the cursor's codec and the query's schema only where there are pages
    expect(matching(name, /paging\.ts$|listQuery\.ts$/).sort()).toEqual(
      name === 'listPlants'
        ? ['lib/http/paging.ts', 'lib/plants/listQuery.ts']
        : name === 'listEndpointAttempts'
          ? ['lib/http/paging.ts']
          : [],
    );
    // a body's schema only where that body is read (found by its description)
    expect(texts[name]?.includes('A plant to add to the store')).toBe(name === 'createPlant');
    expect(texts[name]?.includes("The plant's new content, replacing the old")).toBe(
      name === 'updatePlant',
    );
    // the plant's field schemas (and the id's) only where a plant body is validated with them:
    // the other functions store and show plants by the fields' names alone
    for (const description of ['Tag to specify the type of the plant', 'Identification number']) {
      expect(texts[name]?.includes(description), description).toBe(
        plants !== undefined && (await readsBody(name)),
      );
    }
    // the response schemas are the OpenAPI document's only: no function builds them
    for (const description of [
      'A plant in the store, as the service answers it',
      "A plant of the caller's with its id",
      'A webhook endpoint of yours',
    ]) {
      expect(texts[name]?.includes(description), description).toBe(false);
    }
    // no delivery: the plant routes nothing of webhooks, the endpoints' their stores and url rule,
    // and the deliveries queue (SQS) only those that send to it
    const sends = (ROUTES[name] as RouteEntry).queues !== undefined;
    // a sender takes the queue's message rule, and the error class of a message SQS refuses
    const sending = '|webhooks/(retries|sqsMessages|batchResponse)';
    const theirs = `endpoints/|endpointDeliveries/(store|dynamoStore)|ssrf/${sends ? sending : ''}`;
    const delivery = '^lib/(webhooks|endpoints|endpointDeliveries|operatorWebhook|ssrf)/';
    expect(
      matching(
        name,
        webhooks
          ? new RegExp(
              `^lib/(?!${theirs})(webhooks|endpointDeliveries|operatorWebhook|ssrf)/|${sends ? '' : 'client-sqs|'}client-ssm`,
            )
          : new RegExp(`${delivery}|client-sqs|client-ssm`),
      ),
    ).toEqual([]);
    expect(matching(name, /client-sqs\//).length > 0).toBe(sends);
  });
});

describe('the other functions', () => {
  it('the webhook delivery carries no token, HTTP or route code, no Middy and no DynamoDB client', () => {
    expect(
      matching(
        'deliverPlantAdded',
        /node_modules\/jose\/|^lib\/(auth|http|routes)\/|@middy\/|client-dynamodb\/dist-es\/commands/,
      ),
    ).toEqual([]);
    // the plant's fields by name only: no schema, and so no Zod
    expect(matching('deliverPlantAdded', /node_modules\/zod\//)).toEqual([]);
  });

  it('the stream-failure function reads its batches from S3, with no DynamoDB client', () => {
    expect(matching('keepFailedStreamRecords', /client-s3\//).length).toBeGreaterThan(0);
    expect(matching('keepFailedStreamRecords', /@aws-sdk\/(client|lib)-dynamodb/)).toEqual([]);
  });

  it('the 404/405 function reads no token, no body and no store', () => {
    expect(
      matching(
        'unmatchedRoute',
        /node_modules\/jose\/|jsonBody\.ts$|http-json-body-parser|@aws-sdk\/(client|lib)-dynamodb|^lib\/plants\/dynamo/,
      ),
    ).toEqual([]);
  });
});
