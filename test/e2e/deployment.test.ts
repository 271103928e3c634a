import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_ATTEMPT_TIMEOUT_MS } from '#lib/config/webhook.ts';
import { callerPartition, deliveriesPartition } from '#lib/endpoints/keys.ts';
import { CREATOR_TAG } from '#lib/plants/creatorTag.ts';
import { BY_CREATOR_INDEX, BY_CREATOR_TAG_INDEX } from '#lib/plants/dynamoStore.ts';
import {
  type Queue,
  ROUTE_NAMES,
  ROUTES,
  type RouteEntry,
  routeKey,
} from '#lib/routes/routeList.ts';
import { stageOf } from '../../bench/cost/monthly.ts';
import { RESOURCE_TYPES } from '../../bench/cost/prices.ts';
import { declaredFunctions, repoRoot, yamlOf } from '../../infra/local/paths.ts';
import { operatorWebhook, packageStage as packageTemplate } from '../support/packagedTemplate.ts';

/** The memory serverless.yml gives a function: its own, a route's (custom.memorySize), the provider's. */
const memoryOf = (name: string): number => {
  const { provider, custom } = yamlOf('serverless.yml') as {
    provider: { memorySize: number };
    custom: { memorySize: Record<string, number> };
  };
  const own = declaredFunctions() as Record<string, { memorySize?: number }>;
  return own[name]?.memorySize ?? custom.memorySize[name] ?? provider.memorySize;
};

interface Resource {
  Type: string;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  Properties: Record<string, unknown>;
}
interface Template {
  Resources: Record<string, Resource>;
  Conditions?: Record<string, unknown>;
}

// some tests package a stage of their own: about 20 s alone, more on a loaded machine
vi.setConfig({ testTimeout: 120_000 });

const templates = new Map<string, Template>();

const packageStage = (stage: string, env: NodeJS.ProcessEnv = {}, args: string[] = []) =>
  packageTemplate<Template>(stage, env, args);

/** The operator's webhook's functions, in a stage deployed with a receiver only. */
const OPERATOR_FUNCTIONS = ['DeliverPlantAdded', 'RetryPlantAdded'];
const hasOperator = (stage: string) => stage !== 'dev';
/** A dev stage given the dashboard its params leave out. */
const DEV_DASHBOARD = 'dev, dashboard=true';

beforeAll(async () => {
  templates.set('dev', await packageStage('dev'));
  templates.set('prod', await packageStage('prod', operatorWebhook('prod')));
  templates.set(DEV_DASHBOARD, await packageStage('dev', {}, ['--param=dashboard=true']));
  templates.set(
    'cors',
    await packageStage('dev', {
      CORS_ALLOWED_ORIGINS: 'https://app.example.com http://localhost:5173',
    }),
  );
});

/**
 * A queue a function reads: kept through stack changes, 14 days, encrypted, its visibility six
 * times the function's timeout, and what the function fails on five times moved to `deadLetters`.
 */
const sourceQueue = (deadLetters: string) => ({
  DeletionPolicy: 'Retain',
  Properties: {
    MessageRetentionPeriod: 1209600,
    VisibilityTimeout: 180,
    SqsManagedSseEnabled: true,
    RedrivePolicy: {
      deadLetterTargetArn: { 'Fn::GetAtt': [deadLetters, 'Arn'] },
      maxReceiveCount: 5,
    },
  },
});

/** A function as CloudFormation names its resources: CreatePlantLambdaFunction. */
const resourceName = (name: string) => `${name[0]?.toUpperCase()}${name.slice(1)}`;
const QUEUES: Record<Queue, string> = { endpointDeliveries: 'EndpointDeliveryQueue' };
/**
 * A route's grants, from its line in the route list: its table actions, on the plants table's
 * indexes for a Query (every one a list of plants by owner, never the table itself: no Scan), on
 * the webhooks table otherwise (one caller's endpoints are one partition); then its queues.
 */
const routeGrants = ({ tables, queues = [] }: RouteEntry) => [
  ...Object.entries(tables).flatMap(([table, actions]) =>
    actions.map((action) => ({
      action: `dynamodb:${action}`,
      on: table === 'webhooks' ? 'webhooks table' : action === 'Query' ? 'index *' : 'table',
    })),
  ),
  ...queues.map((queue) => ({ action: 'sqs:SendMessage', on: QUEUES[queue] })),
];

/** Each of `actions` on both lanes of the callers' deliveries. */
const lanes = (actions: string[]) =>
  actions.flatMap((action) =>
    ['EndpointDeliveryQueue', 'EndpointSlowDeliveryQueue'].map((on) => ({ action, on })),
  );

/** A stream function's writes of a batch given up to the stream-failure bucket (Lambda's, as it). */
const STREAM_FAILURE_WRITES = [
  { action: 's3:PutObject', on: "StreamFailureBucket's objects" },
  { action: 's3:ListBucket', on: 'StreamFailureBucket' },
];

/** Each function's grants beyond its logs: the table actions and queues it uses, on what. */
const FUNCTION_GRANTS: Record<string, readonly { action: string; on: string }[]> = {
  ...Object.fromEntries(ROUTE_NAMES.map((name) => [resourceName(name), routeGrants(ROUTES[name])])),
  // its queue's messages (with the event), hiding one not yet due, the two queues it sends to
  RetryPlantAdded: [
    { action: 'sqs:ReceiveMessage', on: 'WebhookRetryQueue' },
    { action: 'sqs:DeleteMessage', on: 'WebhookRetryQueue' },
    { action: 'sqs:GetQueueAttributes', on: 'WebhookRetryQueue' },
    { action: 'sqs:ChangeMessageVisibility', on: 'WebhookRetryQueue' },
    { action: 'sqs:SendMessage', on: 'WebhookRetryQueue' },
    { action: 'sqs:SendMessage', on: 'WebhookDeadLetterQueue' },
    { action: 'ssm:GetParameter', on: 'parameter /plant-store/prod/webhook-secret' },
  ],
  UnmatchedRoute: [],
  // the stream, the owner's endpoints, one delivery per endpoint, the batches given up
  QueueEndpointEvents: [
    { action: 'dynamodb:GetRecords', on: 'stream' },
    { action: 'dynamodb:GetShardIterator', on: 'stream' },
    { action: 'dynamodb:DescribeStream', on: 'stream' },
    { action: 'dynamodb:ListStreams', on: 'stream' },
    { action: 'dynamodb:Query', on: 'webhooks table' },
    { action: 'sqs:SendMessage', on: 'EndpointDeliveryQueue' },
    { action: 'sqs:SendMessage', on: 'EndpointSlowDeliveryQueue' },
    { action: 'sqs:SendMessage', on: 'StreamDeadLetterQueue' },
    ...STREAM_FAILURE_WRITES,
  ],
  // the endpoint read, its attempt recorded, its health; its two lanes' messages, the next attempt
  DeliverToEndpoint: [
    ...lanes(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes']),
    { action: 'dynamodb:GetItem', on: 'webhooks table' },
    { action: 'dynamodb:UpdateItem', on: 'webhooks table' },
    { action: 'dynamodb:PutItem', on: 'webhooks table' },
    ...lanes(['sqs:SendMessage', 'sqs:ChangeMessageVisibility']),
  ],
  // the stream (nothing of the table), its two queues, and the secret
  DeliverPlantAdded: [
    { action: 'dynamodb:GetRecords', on: 'stream' },
    { action: 'dynamodb:GetShardIterator', on: 'stream' },
    { action: 'dynamodb:DescribeStream', on: 'stream' },
    { action: 'dynamodb:ListStreams', on: 'stream' },
    { action: 'sqs:SendMessage', on: 'WebhookRetryQueue' },
    { action: 'sqs:SendMessage', on: 'WebhookDeadLetterQueue' },
    { action: 'sqs:SendMessage', on: 'StreamDeadLetterQueue' },
    ...STREAM_FAILURE_WRITES,
    { action: 'ssm:GetParameter', on: 'parameter /plant-store/prod/webhook-secret' },
  ],
  // the notices of the batches given up, each batch read from the bucket and set aside record by
  // record (nothing of the stream)
  KeepFailedStreamRecords: [
    { action: 'sqs:ReceiveMessage', on: 'WebhookStreamFailureQueue' },
    { action: 'sqs:DeleteMessage', on: 'WebhookStreamFailureQueue' },
    { action: 'sqs:GetQueueAttributes', on: 'WebhookStreamFailureQueue' },
    { action: 's3:GetObject', on: "StreamFailureBucket's objects" },
    { action: 'sqs:SendMessage', on: 'StreamDeadLetterQueue' },
  ],
};
/** Each route's function, and the table whose settings it reads. */
const ROUTE_FUNCTIONS = ROUTE_NAMES.map((name) => ({
  name: resourceName(name),
  table: Object.keys(ROUTES[name].tables)[0] === 'webhooks' ? 'webhooks' : 'plants',
  queue: 'queues' in ROUTES[name],
  // only registration and replacement check where an endpoint points
  checksUrls: name === 'createEndpoint' || name === 'updateEndpoint',
}));

type Statement = { Effect: string; Action: string[]; Resource: unknown[] };

/** What a resource reference in a statement names: the table, or one of its indexes. */
const target = (resource: unknown): string => {
  const conditional = (resource as { 'Fn::If'?: [string, unknown, unknown] })['Fn::If'];
  if (conditional) {
    expect(conditional[2]).toEqual({ Ref: 'AWS::NoValue' });
    return `${target(conditional[1])}, while ${conditional[0]}`;
  }
  const text = JSON.stringify(resource);
  if (text === JSON.stringify({ 'Fn::GetAtt': ['PlantsTable', 'Arn'] })) return 'table';
  if (text === JSON.stringify({ 'Fn::GetAtt': ['WebhooksTable', 'Arn'] })) return 'webhooks table';
  if (text === JSON.stringify({ 'Fn::GetAtt': ['PlantsTable', 'StreamArn'] })) return 'stream';
  const queue = /^\{"Fn::GetAtt":\["(\w+(Queue|Bucket))","Arn"\]\}$/.exec(text);
  if (queue) return queue[1] ?? text;
  const objects = /^\{"Fn::Sub":"\$\{(\w+Bucket)\.Arn\}\/\*"\}$/.exec(text);
  if (objects) return `${objects[1]}'s objects`;
  const parameter = /:parameter(\/[^"]+)"\}$/.exec(text);
  if (parameter) return `parameter ${parameter[1]}`;
  const index = /"PlantsTable","Arn"\]\},"index","([^"]+)"/.exec(text);
  return index ? `index ${index[1]}` : text;
};

/** The event source mappings of a stage's functions. */
const mappingsOf = (stage: string) =>
  Object.values(templates.get(stage)?.Resources ?? {})
    .filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping')
    .map((r) => r.Properties);

/** The functions a stage deploys, by their names in FUNCTION_GRANTS. */
const functionsOf = (stage: string) =>
  Object.keys(FUNCTION_GRANTS).filter(
    (name) => hasOperator(stage) || !OPERATOR_FUNCTIONS.includes(name),
  );

const resource = (stage: string, name: string): Resource => {
  const found = templates.get(stage)?.Resources[name];
  expect(found, `${stage} template has ${name}`).toBeDefined();
  return found as Resource;
};

describe.each(['dev', 'prod'])('the %s stage', (stage) => {
  it.each([
    ['PlantsTable', 'plants'],
    ['WebhooksTable', 'webhooks'],
  ])(
    'keeps its %s: retained, point-in-time recovery, encryption, deletion protection',
    (name, what) => {
      const table = resource(stage, name);

      expect(table.DeletionPolicy).toBe('Retain');
      expect(table.UpdateReplacePolicy).toBe('Retain');
      expect(table.Properties).toMatchObject({
        TableName: `plant-store-${stage}-${what}`,
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
        DeletionProtectionEnabled: true,
      });
    },
  );

  it('keys its webhooks table generically, its items expiring at their expiresAt', () => {
    expect(resource(stage, 'WebhooksTable').Properties).toMatchObject({
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
    // the plants expire never: a TTL deletion there would reach the webhooks as a plant deleted
    expect(resource(stage, 'PlantsTable').Properties.TimeToLiveSpecification).toBeUndefined();
  });

  it("indexes each caller's whole plants, and those with one tag, by creation time, for the list", () => {
    const byCreator = [
      { AttributeName: 'createdBy', KeyType: 'HASH' },
      { AttributeName: 'createdAt', KeyType: 'RANGE' },
    ];
    const byCreatorTag = [
      { AttributeName: CREATOR_TAG, KeyType: 'HASH' },
      { AttributeName: 'createdAt', KeyType: 'RANGE' },
    ];
    expect(resource(stage, 'PlantsTable').Properties.GlobalSecondaryIndexes).toEqual([
      { IndexName: BY_CREATOR_INDEX, KeySchema: byCreator, Projection: { ProjectionType: 'ALL' } },
      {
        IndexName: BY_CREATOR_TAG_INDEX,
        KeySchema: byCreatorTag,
        Projection: { ProjectionType: 'ALL' },
      },
      // the first version's index, only in the deploy of an upgrade that keeps it
      {
        'Fn::If': [
          'KeepRetiredIndex',
          {
            IndexName: 'byCreator',
            KeySchema: byCreator,
            Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['name', 'tag'] },
          },
          { Ref: 'AWS::NoValue' },
        ],
      },
    ]);
    expect(templates.get(stage)?.Conditions?.KeepRetiredIndex).toEqual({
      'Fn::Equals': ['false', 'true'],
    });
  });

  it('records the version and the commit it is deployed from (npm run smoke prints them)', () => {
    const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    expect((templates.get(stage) as { Outputs?: Record<string, unknown> }).Outputs).toMatchObject({
      Version: { Value: version },
      Commit: { Value: head },
    });
    expect(head).toMatch(/^[0-9a-f]{40}$/);
  });

  it('describes the grants of every function it deploys', () => {
    const functions = Object.entries(templates.get(stage)?.Resources ?? {})
      .filter(([, { Type }]) => Type === 'AWS::Lambda::Function')
      .map(([id]) => id.replace(/LambdaFunction$/, ''));
    expect(functions.sort()).toEqual(functionsOf(stage).sort());
  });

  it('watches the throttles of the indexes the list reads', () => {
    const alarm = JSON.stringify(resource(stage, 'StoreThrottlesAlarm').Properties);
    for (const index of [BY_CREATOR_INDEX, BY_CREATOR_TAG_INDEX]) {
      expect(alarm).toContain(`{"Name":"GlobalSecondaryIndexName","Value":"${index}"}`);
    }
  });

  it.each(functionsOf(stage))('keeps the %s logs for a set period', (name) => {
    const logs = resource(stage, `${name}LogGroup`);
    expect(logs.Properties.RetentionInDays).toBe(stage === 'prod' ? 365 : 30);
  });

  it.each(functionsOf(stage).map((name) => [name, FUNCTION_GRANTS[name]] as const))(
    'gives %s a role of its own with exactly its table actions',
    (name, expected) => {
      const fn = resource(stage, `${name}LambdaFunction`).Properties as { Role: unknown };
      expect(fn.Role).toEqual({ 'Fn::GetAtt': [`${name}IamRoleLambdaExecution`, 'Arn'] });
      const role = resource(stage, `${name}IamRoleLambdaExecution`).Properties as {
        Policies: { PolicyDocument: { Statement: Statement[] } }[];
      };
      const statements = role.Policies.flatMap((policy) => policy.PolicyDocument.Statement);
      const grants = statements
        .filter((s) => s.Action.some((action) => !/^(logs|xray):/.test(action)))
        .flatMap((s) =>
          s.Action.flatMap((action) => s.Resource.map((r) => ({ action, on: target(r) }))),
        );

      expect(grants).toEqual(expected);
      expect(statements.every((s) => s.Effect === 'Allow')).toBe(true);
    },
  );

  it.each(functionsOf(stage))(
    'traces %s with X-Ray, its role allowed to send the segments',
    (name) => {
      const fn = resource(stage, `${name}LambdaFunction`).Properties;
      expect(fn.TracingConfig).toEqual({ Mode: 'Active' });
      const role = resource(stage, `${name}IamRoleLambdaExecution`).Properties as {
        Policies: { PolicyDocument: { Statement: Statement[] } }[];
      };
      const xray = role.Policies.flatMap((policy) => policy.PolicyDocument.Statement).filter((s) =>
        s.Action.some((action) => action.startsWith('xray:')),
      );
      expect(xray).toEqual([
        {
          Effect: 'Allow',
          Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
          Resource: ['*'],
        },
      ]);
    },
  );

  it("limits deliverToEndpoint's table actions to the partitions it owns", () => {
    const role = resource(stage, 'DeliverToEndpointIamRoleLambdaExecution').Properties as {
      Policies: { PolicyDocument: { Statement: (Statement & { Condition?: unknown })[] } }[];
    };
    const onTable = role.Policies.flatMap(({ PolicyDocument }) => PolicyDocument.Statement)
      .filter(({ Action }) => Action.some((action) => action.startsWith('dynamodb:')))
      .map(({ Action, Condition }) => [Action, Condition]);
    const within = (partition: string) => ({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [partition] },
    });
    expect(onTable).toEqual([
      [['dynamodb:GetItem', 'dynamodb:UpdateItem'], within(callerPartition('*'))],
      [['dynamodb:PutItem'], within(deliveriesPartition('*'))],
    ]);
  });

  it('grants no Scan and no wildcard action to any role', () => {
    const template = JSON.stringify(templates.get(stage));
    expect(template).not.toMatch(/dynamodb:Scan|dynamodb:\*/);
  });

  // serverless.yml checked against the route list, in this one place
  it('routes each route of the list to its function, and everything else to ours (404/405)', () => {
    const resources = templates.get(stage)?.Resources ?? {};
    /** The first logical id a value refers to that matches: {"Ref": id} or {"Fn::GetAtt": [id, ...]}. */
    const idIn = (value: unknown, pattern: RegExp) =>
      pattern.exec(JSON.stringify(value))?.[1] ?? '';
    const handlerOf = Object.fromEntries(
      Object.entries(resources)
        .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
        .map(([id, r]) => [id, String(r.Properties.Handler)]),
    );
    const routes = Object.values(resources)
      .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')
      .map((r) => {
        const integration = resources[idIn(r.Properties.Target, /"Ref":"(\w+)"/)];
        const fn = idIn(integration?.Properties.IntegrationUri, /"(\w+LambdaFunction)"/);
        return [String(r.Properties.RouteKey), handlerOf[fn]];
      });
    expect(Object.fromEntries(routes)).toEqual({
      ...Object.fromEntries(
        ROUTE_NAMES.map((name) => [routeKey(ROUTES[name]), `handlers/${name}.handler`]),
      ),
      $default: 'handlers/unmatchedRoute.handler',
    });
    expect(routes).toHaveLength(ROUTE_NAMES.length + 1);
  });

  it('gives each function only the settings it reads', () => {
    const variables = (name: string) =>
      Object.keys(
        (
          resource(stage, `${name}LambdaFunction`).Properties.Environment as {
            Variables: Record<string, unknown>;
          }
        ).Variables,
      ).sort();
    expect(variables('UnmatchedRoute')).toEqual(['LOG_LEVEL', 'METRICS_NAMESPACE']);
    for (const name of OPERATOR_FUNCTIONS.filter(() => hasOperator(stage))) {
      expect(variables(name)).toEqual([
        'LOG_LEVEL',
        'METRICS_NAMESPACE',
        // only the stream function sets a record aside
        ...(name === 'DeliverPlantAdded' ? ['STREAM_DEAD_LETTER_QUEUE_URL'] : []),
        'WEBHOOK_DEAD_LETTER_QUEUE_URL',
        'WEBHOOK_RETRY_QUEUE_URL',
        'WEBHOOK_RETRY_SCHEDULE',
        'WEBHOOK_SECRET',
        'WEBHOOK_SECRET_PARAMETER',
        'WEBHOOK_URL',
      ]);
    }
    expect(variables('QueueEndpointEvents')).toEqual([
      'DYNAMODB_ENDPOINT',
      'ENDPOINT_DELIVERY_QUEUE_URL',
      'ENDPOINT_SLOW_DELIVERY_QUEUE_URL',
      'LOG_LEVEL',
      'METRICS_NAMESPACE',
      'STREAM_DEAD_LETTER_QUEUE_URL',
      'WEBHOOKS_TABLE',
    ]);
    expect(variables('KeepFailedStreamRecords')).toEqual([
      'LOG_LEVEL',
      'METRICS_NAMESPACE',
      'STREAM_DEAD_LETTER_QUEUE_URL',
    ]);
    expect(variables('DeliverToEndpoint')).toEqual([
      'DYNAMODB_ENDPOINT',
      'ENDPOINT_DELIVERY_QUEUE_URL',
      'ENDPOINT_DELIVERY_RETENTION_SECONDS',
      'ENDPOINT_SLOW_DELIVERY_QUEUE_URL',
      'LOG_LEVEL',
      'METRICS_NAMESPACE',
      'WEBHOOKS_TABLE',
      'WEBHOOK_ALLOW_PRIVATE_URLS',
      'WEBHOOK_RETRY_SCHEDULE',
    ]);
    for (const { name, table, queue, checksUrls } of ROUTE_FUNCTIONS) {
      const tableSettings = table === 'plants' ? ['PLANTS_TABLE'] : ['WEBHOOKS_TABLE'];
      if (checksUrls) tableSettings.push('WEBHOOK_ALLOW_PRIVATE_URLS');
      expect(variables(name)).toEqual([
        'AUTH_AUDIENCE',
        'AUTH_ISSUER',
        'AUTH_JWKS_COOLDOWN_SECONDS',
        'AUTH_JWKS_FILE',
        'AUTH_JWKS_URL',
        'AUTH_READ_SCOPE',
        'AUTH_WRITE_SCOPE',
        'DYNAMODB_ENDPOINT',
        ...(queue ? ['ENDPOINT_DELIVERY_QUEUE_URL'] : []),
        'LOG_LEVEL',
        'METRICS_NAMESPACE',
        ...tableSettings,
      ]);
    }
  });

  it('gives each function that makes attempts three times the longest WEBHOOK_TIMEOUT_MS allows', () => {
    for (const name of functionsOf(stage).filter((n) => /Deliver|Retry/.test(n)))
      expect(resource(stage, `${name}LambdaFunction`).Properties.Timeout).toBeGreaterThanOrEqual(
        (3 * MAX_ATTEMPT_TIMEOUT_MS) / 1000,
      );
  });

  it('answers browsers no CORS unless origins are given', () => {
    expect(resource(stage, 'HttpApi').Properties.CorsConfiguration).toBeUndefined();
  });

  it("feeds each stream function the table's stream and each queue function its queues, each with partial failures", () => {
    // the old image tells a deleted plant's owner
    expect(resource(stage, 'PlantsTable').Properties.StreamSpecification).toEqual({
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    });
    const mappings = mappingsOf(stage);
    expect(mappings).toHaveLength(hasOperator(stage) ? 6 : 4);
    // the operator's webhook (where the stage has one): the inserts, then its retry queue
    if (hasOperator(stage))
      expect(mappings).toContainEqual(
        expect.objectContaining({
          EventSourceArn: { 'Fn::GetAtt': ['PlantsTable', 'StreamArn'] },
          FunctionName: { 'Fn::GetAtt': ['DeliverPlantAddedLambdaFunction', 'Arn'] },
          FilterCriteria: { Filters: [{ Pattern: '{"eventName":["INSERT"]}' }] },
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          // a record failing for now is retried a bounded number of times, its batch split to find it
          MaximumRetryAttempts: 5,
          BisectBatchOnFunctionError: true,
          // a burst of one caller's plants holds the others' a tenth as long
          ParallelizationFactor: 10,
          DestinationConfig: {
            OnFailure: { Destination: { 'Fn::GetAtt': ['StreamFailureBucket', 'Arn'] } },
          },
        }),
      );
    if (hasOperator(stage))
      expect(mappings).toContainEqual(
        expect.objectContaining({
          EventSourceArn: { 'Fn::GetAtt': ['WebhookRetryQueue', 'Arn'] },
          FunctionName: { 'Fn::GetAtt': ['RetryPlantAddedLambdaFunction', 'Arn'] },
          BatchSize: 10,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          // a backlog never takes the account's whole concurrency
          ScalingConfig: { MaximumConcurrency: 10 },
        }),
      );
    // every change of a plant, for the callers' endpoints; their deliveries from their queue
    expect(mappings).toContainEqual(
      expect.objectContaining({
        EventSourceArn: { 'Fn::GetAtt': ['PlantsTable', 'StreamArn'] },
        FunctionName: { 'Fn::GetAtt': ['QueueEndpointEventsLambdaFunction', 'Arn'] },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        MaximumRetryAttempts: 5,
        BisectBatchOnFunctionError: true,
        ParallelizationFactor: 10,
        DestinationConfig: {
          OnFailure: { Destination: { 'Fn::GetAtt': ['StreamFailureBucket', 'Arn'] } },
        },
      }),
    );
    expect(
      mappings.find((m) => JSON.stringify(m.FunctionName).includes('QueueEndpointEvents'))
        ?.FilterCriteria,
    ).toBeUndefined();
    // each lane at most 10 batches at once: one caller's flood never takes the account's whole
    // concurrency, and slow or failing endpoints never take the quick ones' batches
    for (const queue of ['EndpointDeliveryQueue', 'EndpointSlowDeliveryQueue'])
      expect(mappings).toContainEqual(
        expect.objectContaining({
          EventSourceArn: { 'Fn::GetAtt': [queue, 'Arn'] },
          FunctionName: { 'Fn::GetAtt': ['DeliverToEndpointLambdaFunction', 'Arn'] },
          BatchSize: 10,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          ScalingConfig: { MaximumConcurrency: 10 },
        }),
      );
    for (const name of OPERATOR_FUNCTIONS.filter(() => hasOperator(stage))) {
      expect(resource(stage, `${name}LambdaFunction`).Properties).toMatchObject({
        Timeout: 30,
        Environment: {
          Variables: {
            WEBHOOK_SECRET: '',
            WEBHOOK_SECRET_PARAMETER: '/plant-store/prod/webhook-secret',
            WEBHOOK_DEAD_LETTER_QUEUE_URL: { Ref: 'WebhookDeadLetterQueue' },
            WEBHOOK_RETRY_QUEUE_URL: { Ref: 'WebhookRetryQueue' },
            WEBHOOK_RETRY_SCHEDULE: '',
          },
        },
      });
    }
  });

  it("keeps callers' deliveries encrypted on both lanes, moves what the function keeps failing on aside, and alarms on the main lane's age and on that, on the slow lane's only once stalled", () => {
    for (const queue of ['EndpointDeliveryQueue', 'EndpointSlowDeliveryQueue'])
      expect(resource(stage, queue)).toMatchObject(sourceQueue('EndpointDeliveryPoisonQueue'));
    expect(resource(stage, 'EndpointDeliveryPoisonQueue')).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: { MessageRetentionPeriod: 1209600, SqsManagedSseEnabled: true },
    });
    for (const [alarm, metric, queue, threshold] of [
      [
        'EndpointDeliveriesStuckAlarm',
        'ApproximateAgeOfOldestMessage',
        'EndpointDeliveryQueue',
        46800,
      ],
      // the slow lane only once its consumer stopped: past where any delivery is given up (half)
      [
        'EndpointSlowDeliveriesStalledAlarm',
        'ApproximateAgeOfOldestMessage',
        'EndpointSlowDeliveryQueue',
        907200,
      ],
      [
        'EndpointDeliveryPoisonAlarm',
        'ApproximateNumberOfMessagesVisible',
        'EndpointDeliveryPoisonQueue',
        1,
      ],
    ] as const) {
      expect(resource(stage, alarm).Properties).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: metric,
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queue, 'QueueName'] } }],
        Threshold: threshold,
      });
    }
    // one caller's slow receiver pages no operator: no other alarm reads the slow lane
    const alarms = Object.entries(templates.get(stage)?.Resources ?? {}).filter(
      ([id, { Type }]) =>
        Type === 'AWS::CloudWatch::Alarm' && id !== 'EndpointSlowDeliveriesStalledAlarm',
    );
    expect(JSON.stringify(alarms)).not.toContain('EndpointSlowDeliveryQueue');
    for (const name of ['QueueEndpointEvents', 'DeliverToEndpoint']) {
      expect(resource(stage, `${name}LambdaFunction`).Properties).toMatchObject({
        Timeout: 30,
        Environment: {
          Variables: {
            ENDPOINT_DELIVERY_QUEUE_URL: { Ref: 'EndpointDeliveryQueue' },
            ENDPOINT_SLOW_DELIVERY_QUEUE_URL: { Ref: 'EndpointSlowDeliveryQueue' },
          },
        },
      });
    }
  });

  it('sets aside whole the stream records that cannot be handled, and alarms on them and on a stream function behind', () => {
    expect(resource(stage, 'StreamDeadLetterQueue')).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: { MessageRetentionPeriod: 1209600, SqsManagedSseEnabled: true },
    });
    expect(resource(stage, 'StreamDeadLettersAlarm').Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [
        { Name: 'QueueName', Value: { 'Fn::GetAtt': ['StreamDeadLetterQueue', 'QueueName'] } },
      ],
      Threshold: 1,
    });
    for (const name of functionsOf(stage).filter((n) =>
      /PlantAdded$|QueueEndpointEvents/.test(n),
    )) {
      if (name === 'RetryPlantAdded') continue;
      expect(resource(stage, `${name}IteratorAgeAlarm`).Properties).toMatchObject({
        Namespace: 'AWS/Lambda',
        MetricName: 'IteratorAge',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: `${name}LambdaFunction` } }],
        Statistic: 'Maximum',
        // 5 minutes, in ms
        Threshold: 300000,
        ComparisonOperator: 'GreaterThanThreshold',
      });
      // a batch given up that Lambda could not write to the bucket: kept nowhere
      expect(resource(stage, `${name}StreamFailuresLostAlarm`).Properties).toMatchObject({
        Namespace: 'AWS/Lambda',
        MetricName: 'DestinationDeliveryFailures',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: `${name}LambdaFunction` } }],
        Statistic: 'Sum',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    }
    // the bucket's notices of the batches given up, each batch read from it and set aside
    expect(mappingsOf(stage)).toContainEqual(
      expect.objectContaining({
        EventSourceArn: { 'Fn::GetAtt': ['WebhookStreamFailureQueue', 'Arn'] },
        FunctionName: { 'Fn::GetAtt': ['KeepFailedStreamRecordsLambdaFunction', 'Arn'] },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      }),
    );
    const streamFunctions = ['DeliverPlantAdded', 'QueueEndpointEvents', 'KeepFailedStreamRecords'];
    for (const name of streamFunctions.filter((n) => functionsOf(stage).includes(n))) {
      expect(resource(stage, `${name}LambdaFunction`).Properties).toMatchObject({
        Environment: {
          Variables: { STREAM_DEAD_LETTER_QUEUE_URL: { Ref: 'StreamDeadLetterQueue' } },
        },
      });
    }
  });

  it('keeps the batches given up 14 days, kept through stack changes', () => {
    expect(resource(stage, 'WebhookStreamFailureQueue')).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: { MessageRetentionPeriod: 1209600, SqsManagedSseEnabled: true },
    });
    // each written whole to the bucket (its records' content): private, encrypted, each noticed
    // on the queue, expiring as the queue's messages do
    expect(resource(stage, 'StreamFailureBucket')).toMatchObject({
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [
            { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
          ],
        },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        LifecycleConfiguration: {
          Rules: [
            expect.objectContaining({ Status: 'Enabled', ExpirationInDays: 1209600 / 86400 }),
          ],
        },
        NotificationConfiguration: {
          QueueConfigurations: [
            {
              Event: 's3:ObjectCreated:*',
              Queue: { 'Fn::GetAtt': ['WebhookStreamFailureQueue', 'Arn'] },
            },
          ],
        },
      },
    });
    // its objects over TLS only
    expect(resource(stage, 'StreamFailureBucketPolicy').Properties).toEqual({
      Bucket: { Ref: 'StreamFailureBucket' },
      PolicyDocument: {
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Deny',
            Principal: '*',
            Action: 's3:*',
            Resource: [
              { 'Fn::GetAtt': ['StreamFailureBucket', 'Arn'] },
              { 'Fn::Sub': `\${StreamFailureBucket.Arn}/*` },
            ],
            Condition: { Bool: { 'aws:SecureTransport': false } },
          },
        ],
      },
    });
    // the queue takes the notices of this stage's bucket alone (its name, as CloudFormation makes it)
    expect(resource(stage, 'WebhookStreamFailureQueuePolicy').Properties).toMatchObject({
      Queues: [{ Ref: 'WebhookStreamFailureQueue' }],
      PolicyDocument: {
        Statement: [
          expect.objectContaining({
            Principal: { Service: 's3.amazonaws.com' },
            Action: 'sqs:SendMessage',
            Condition: {
              StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
              ArnLike: {
                'aws:SourceArn': {
                  'Fn::Sub': `arn:\${AWS::Partition}:s3:::plant-store-${stage}-streamfailurebucket-*`,
                },
              },
            },
          }),
        ],
      },
    });
    // a notice its consumer failed on five times moves to the stream dead letters
    expect(resource(stage, 'WebhookStreamFailureQueue').Properties).toMatchObject({
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': ['StreamDeadLetterQueue', 'Arn'] },
        maxReceiveCount: 5,
      },
    });
    // every queue an event rides takes SQS's largest message, which the batches are cut to
    for (const queue of [
      ...(hasOperator(stage) ? ['WebhookRetryQueue', 'WebhookDeadLetterQueue'] : []),
      'EndpointDeliveryQueue',
      'EndpointSlowDeliveryQueue',
      'EndpointDeliveryPoisonQueue',
      'StreamDeadLetterQueue',
    ]) {
      expect(resource(stage, queue).Properties.MaximumMessageSize).toBe(1048576);
    }
  });

  it.each(
    functionsOf(stage).filter(
      (name) =>
        ![
          'DeliverPlantAdded',
          'RetryPlantAdded',
          'QueueEndpointEvents',
          'DeliverToEndpoint',
          'KeepFailedStreamRecords',
        ].includes(name),
    ),
  )('sizes %s as the bench chose, with a timeout above the store retry bound', (name) => {
    const route = `${name.charAt(0).toLowerCase()}${name.slice(1)}`;
    expect(resource(stage, `${name}LambdaFunction`).Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      MemorySize: memoryOf(route),
      Timeout: 10,
      // each stage's metrics its own: a namespace per stage
      Environment: { Variables: { LOG_LEVEL: 'INFO', METRICS_NAMESPACE: `PlantStore/${stage}` } },
    });
  });

  it.each(functionsOf(stage))(
    "logs %s's lines, but not Lambda's own START, END and REPORT",
    (name) => {
      // TRACE: Lambda drops none of ours, LOG_LEVEL decides (a line below it is its count alone)
      expect(resource(stage, `${name}LambdaFunction`).Properties.LoggingConfig).toEqual({
        LogFormat: 'JSON',
        ApplicationLogLevel: 'TRACE',
        SystemLogLevel: 'WARN',
      });
    },
  );

  it('throttles the HTTP API, with limits of its own per stage', () => {
    expect(resource(stage, 'HttpApiStage').Properties.DefaultRouteSettings).toEqual(
      stage === 'prod'
        ? { ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 }
        : { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
    );
  });

  it('alarms on 5xx answers and on DynamoDB throttles', () => {
    expect(resource(stage, 'ServerErrorsAlarm').Properties).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Dimensions: [
        { Name: 'ApiId', Value: { Ref: 'HttpApi' } },
        { Name: 'Stage', Value: '$default' },
      ],
    });
    const throttles = resource(stage, 'StoreThrottlesAlarm').Properties as {
      Metrics: {
        Id: string;
        Expression?: string;
        MetricStat?: { Metric: { MetricName: string; Dimensions: { Name: string }[] } };
      }[];
    };
    // reads and writes of the table, and reads of the list's index
    expect(
      throttles.Metrics.filter((m) => m.MetricStat).map(({ MetricStat }) => [
        MetricStat?.Metric.MetricName,
        MetricStat?.Metric.Dimensions.map((d) => d.Name).join('+'),
      ]),
    ).toEqual([
      ['ReadThrottleEvents', 'TableName'],
      ['WriteThrottleEvents', 'TableName'],
      ['ReadThrottleEvents', 'TableName+GlobalSecondaryIndexName'],
      ['ReadThrottleEvents', 'TableName+GlobalSecondaryIndexName'],
    ]);
    expect(throttles.Metrics.find((m) => m.Expression)?.Expression).toMatch(
      /tableReads.*tableWrites.*indexReads.*tagIndexReads/,
    );
  });
});

/** The actions of every alarm in a template, by alarm. */
const alarmActions = (template: Template | undefined) =>
  Object.entries(template?.Resources ?? {})
    .filter(([, r]) => r.Type === 'AWS::CloudWatch::Alarm')
    .map(([id, r]) => [id, r.Properties.AlarmActions, r.Properties.OKActions]);

describe("the operator's webhook", () => {
  /** Everything of it in a template: its functions (and their roles, logs, mappings), queues, alarms. */
  const operatorResources = (template: Template | undefined) =>
    Object.keys(template?.Resources ?? {}).filter((id) =>
      // a function's versions are named by its code's hash: its function stands for them
      /^(DeliverPlantAdded|RetryPlantAdded|WebhookRetr|WebhookDeadLetter)(?!.*LambdaVersion)/.test(
        id,
      ),
    );
  /** A function's definition, the stage's name and its code's key left out. */
  const sameIn = (stage: string, id: string) => {
    const { Code: _code, ...properties } = resource(stage, id).Properties;
    return JSON.parse(
      JSON.stringify(properties)
        .replaceAll(`plant-store-${stage}-`, 'plant-store-')
        .replaceAll(`"STAGE","Value":"${stage}"`, '"STAGE","Value":"<stage>"')
        .replaceAll(`"PlantStore/${stage}"`, '"PlantStore/<stage>"'),
    );
  };

  it('is not deployed without a receiver: no function, queue or alarm of it, nor its output', () => {
    expect(operatorResources(templates.get('dev'))).toEqual([]);
    const outputs = (templates.get('dev') as { Outputs?: Record<string, unknown> }).Outputs;
    expect(outputs).not.toHaveProperty('WebhookSecretParameter');
  });

  it("leaves the callers' endpoints' functions as they are with it", () => {
    expect(operatorResources(templates.get('prod')).sort()).toEqual(
      [
        'DeliverPlantAddedEventSourceMappingDynamodbPlantsTable',
        'DeliverPlantAddedIamRoleLambdaExecution',
        'DeliverPlantAddedIteratorAgeAlarm',
        'DeliverPlantAddedLambdaFunction',
        'DeliverPlantAddedLogGroup',
        'DeliverPlantAddedStreamFailuresLostAlarm',
        'RetryPlantAddedEventSourceMappingSQSWebhookRetryQueue',
        'RetryPlantAddedIamRoleLambdaExecution',
        'RetryPlantAddedLambdaFunction',
        'RetryPlantAddedLogGroup',
        'WebhookDeadLetterQueue',
        'WebhookDeadLettersAlarm',
        'WebhookRetriesStuckAlarm',
        'WebhookRetryQueue',
      ].sort(),
    );
    for (const name of ['QueueEndpointEvents', 'DeliverToEndpoint', 'KeepFailedStreamRecords'])
      expect(sameIn('dev', `${name}LambdaFunction`)).toEqual(
        sameIn('prod', `${name}LambdaFunction`),
      );
  });

  it('tells where its secret is, for the removal of the stage', () => {
    expect((templates.get('prod') as { Outputs?: Record<string, unknown> }).Outputs).toMatchObject({
      WebhookSecretParameter: { Value: operatorWebhook('prod').WEBHOOK_SECRET_PARAMETER },
    });
  });

  it('keeps waiting webhooks far longer than any step, encrypted, with a redrive and an alarm on their age', () => {
    const stage = 'prod';
    expect(resource(stage, 'WebhookRetryQueue')).toMatchObject(
      sourceQueue('WebhookDeadLetterQueue'),
    );
    expect(resource(stage, 'WebhookRetriesStuckAlarm').Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateAgeOfOldestMessage',
      Dimensions: [
        { Name: 'QueueName', Value: { 'Fn::GetAtt': ['WebhookRetryQueue', 'QueueName'] } },
      ],
      Threshold: 46800,
    });
  });

  it('keeps undeliverable webhooks 14 days, kept through stack changes, and alarms on them', () => {
    const stage = 'prod';
    expect(resource(stage, 'WebhookDeadLetterQueue')).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: { MessageRetentionPeriod: 1209600, SqsManagedSseEnabled: true },
    });
    expect(resource(stage, 'WebhookDeadLettersAlarm').Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [
        { Name: 'QueueName', Value: { 'Fn::GetAtt': ['WebhookDeadLetterQueue', 'QueueName'] } },
      ],
      Threshold: 1,
    });
  });
});

describe('the commit a stage records', () => {
  it("is 'unknown' when packaged outside a git checkout", () => {
    const dir = mkdtempSync(join(tmpdir(), 'no-checkout-'));
    copyFileSync(join(repoRoot, 'infra', 'commit.cjs'), join(dir, 'commit.cjs'));
    expect(createRequire(import.meta.url)(join(dir, 'commit.cjs'))()).toBe('unknown');
  });
});

describe('a stage removed with its data kept', () => {
  it('deploys again: its tables adopted (named, kept), its queues named anew by CloudFormation', () => {
    for (const stage of ['dev', 'prod']) {
      const resources = Object.entries(templates.get(stage)?.Resources ?? {});
      const tables = resources.filter(([, r]) => r.Type === 'AWS::DynamoDB::Table');
      const queues = resources.filter(([, r]) => r.Type === 'AWS::SQS::Queue');
      expect(tables.length).toBe(2);
      // CloudFormation imports a kept resource by a static name, and only a Retain one
      for (const [id, r] of tables) {
        expect(r.DeletionPolicy, id).toBe('Retain');
        expect(r.Properties.TableName, id).toMatch(new RegExp(`^plant-store-${stage}-`));
      }
      // a kept queue cannot be imported so (its id is its URL): a new one is made beside it
      for (const [id, r] of queues) {
        expect(r.DeletionPolicy, id).toBe('Retain');
        expect(r.Properties, id).not.toHaveProperty('QueueName');
      }
    }
  });

  it('asks CloudFormation to adopt them: every change set of the deploy imports existing resources', async () => {
    // osls's own change set parameters (patched: patches/osls+4.3.1.patch)
    const { getCreateChangeSetParams } = createRequire(import.meta.url)(
      'osls/lib/plugins/aws/lib/get-create-change-set-params.js',
    ) as {
      getCreateChangeSetParams: (
        this: unknown,
        options: { changeSetType: string; templateUrl: string },
      ) => Record<string, unknown>;
    };
    const deploy = {
      provider: { naming: { getStackChangeSetName: () => 'plant-store-dev-change-set' } },
      serverless: { service: { provider: {} } },
      getSharedStackActionParams: () => ({ StackName: 'plant-store-dev' }),
    };
    for (const changeSetType of ['CREATE', 'UPDATE'])
      expect(
        getCreateChangeSetParams.call(deploy, { changeSetType, templateUrl: 'https://x' }),
      ).toMatchObject({ ChangeSetType: changeSetType, ImportExistingResources: true });
  });
});

describe.each(['dev', 'prod'])('the alarms of the %s stage, with no alarm topic', (stage) => {
  it('notify no one (an empty action would fail the deploy)', () => {
    const alarms = alarmActions(templates.get(stage));
    // four of them the operator's webhook's
    expect(alarms).toHaveLength(hasOperator(stage) ? 12 : 8);
    for (const [id, onAlarm, onOk] of alarms) expect([id, onAlarm, onOk]).toEqual([id, [], []]);
  });
});

describe('the alarms, with an alarmTopicArn', () => {
  it('notify that topic when they fire and when they are over', async () => {
    const topic = 'arn:aws:sns:us-east-1:123456789012:plant-store-alarms';
    const alarms = alarmActions(
      await packageStage('dev', operatorWebhook('dev'), [`--param=alarmTopicArn=${topic}`]),
    );
    expect(alarms).toHaveLength(12);
    for (const [id, onAlarm, onOk] of alarms)
      expect([id, onAlarm, onOk]).toEqual([id, [topic], [topic]]);
  });
});

describe('a bad WEBHOOK_RETRY_SCHEDULE', () => {
  it('stops the packaging, naming the setting and its rule', async () => {
    const refused = await packageStage('dev', { WEBHOOK_RETRY_SCHEDULE: '5s,,13h' }).then(
      () => 'packaged',
      (error: { stdout?: string; stderr?: string }) => `${error.stdout}${error.stderr}`,
    );
    expect(refused).toMatch(/WEBHOOK_RETRY_SCHEDULE \(param webhookRetrySchedule\) must be waits/);
  });

  it('stops the packaging when the delivery lanes would keep a retry for less than twice its wait', async () => {
    const settings = {
      WEBHOOK_RETRY_SCHEDULE: '5s,12h',
      ENDPOINT_DELIVERY_RETENTION_SECONDS: '86400',
    };
    const refused = await packageStage('dev', settings).then(
      () => 'packaged',
      (error: { stdout?: string; stderr?: string }) => `${error.stdout}${error.stderr}`,
    );
    expect(refused).toMatch(/more than twice the schedule's longest step \(43200 s\), got "86400"/);
  });

  it('passes a good one to every function that retries deliveries', async () => {
    const template = await packageStage('dev', {
      ...operatorWebhook('dev'),
      WEBHOOK_RETRY_SCHEDULE: '2s,4s',
    });
    for (const name of ['DeliverPlantAdded', 'RetryPlantAdded', 'DeliverToEndpoint']) {
      expect(template.Resources[`${name}LambdaFunction`]?.Properties.Environment).toMatchObject({
        Variables: { WEBHOOK_RETRY_SCHEDULE: '2s,4s' },
      });
    }
  });
});

describe('a retired setting', () => {
  it('stops the packaging with what to set instead', async () => {
    const refused = await packageStage('dev', { AUTH_REQUIRED_SCOPE: 'plants:write' }).then(
      () => 'packaged',
      (error: { stdout?: string; stderr?: string }) => `${error.stdout}${error.stderr}`,
    );
    expect(refused).toMatch(/AUTH_REQUIRED_SCOPE .* is no longer read: set AUTH_WRITE_SCOPE/);
  });
});

describe('the upgrade of a table made by the first version', () => {
  it('keeps its list index for the deploy that adds the new one', async () => {
    const upgrade = await packageStage('prod', {}, ['--param=keepRetiredIndex=true']);
    expect(upgrade.Conditions?.KeepRetiredIndex).toEqual({ 'Fn::Equals': ['true', 'true'] });
  });
});

describe('CORS, with CORS_ALLOWED_ORIGINS set', () => {
  it('lets those origins call with a token and If-Match, and read Link and ETag', () => {
    expect(resource('cors', 'HttpApi').Properties.CorsConfiguration).toEqual({
      AllowOrigins: ['https://app.example.com', 'http://localhost:5173'],
      AllowHeaders: ['Authorization', 'Content-Type', 'If-Match'],
      AllowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      ExposeHeaders: ['Link', 'ETag'],
      MaxAge: 600,
    });
  });
});

// this block's own imports, beside it at the file's end
const { CUSTOM_METRICS, METRIC_NAMES } = await import('#lib/telemetry.ts');
const { SERVICE_NAME } = await import('#lib/config/telemetry.ts');

describe('the dashboard a stage deploys', () => {
  const dashboards = (key: string) =>
    Object.values(templates.get(key)?.Resources ?? {}).filter(
      ({ Type }) => Type === 'AWS::CloudWatch::Dashboard',
    ).length;

  it("is none in dev (params.dev.dashboard 'false') unless given dashboard=true, one in prod: as the monthly bill counts it", () => {
    expect(dashboards('dev')).toBe(0);
    expect(dashboards('dev')).toBe(stageOf(false, 'dev').dashboards);
    expect(dashboards('prod')).toBe(1);
    expect(dashboards('prod')).toBe(stageOf(true, 'prod').dashboards);
    expect(dashboards(DEV_DASHBOARD)).toBe(1);
  });

  it('is priced with every other resource type the templates deploy: a bill line, or why none (bench/cost/prices.json)', () => {
    const types = new Set(
      [...templates.values()].flatMap((t) => Object.values(t.Resources).map(({ Type }) => Type)),
    );
    expect(types).toContain('AWS::CloudWatch::Dashboard');
    for (const type of types) expect(RESOURCE_TYPES, type).toHaveProperty([type]);
  });
});

describe.each([
  ['dev', DEV_DASHBOARD],
  ['prod', 'prod'],
])('the dashboard of the %s stage (%s)', (stage, key) => {
  const REGION = 'region-of-the-stack';
  // the stack's name: osls's, service and stage (serverless.yml sets no provider.stackName)
  const STACK = `plant-store-${stage}`;
  const template = () => templates.get(key) as Template;
  const typeOf = (id: string) => template().Resources[id]?.Type;
  /** Its body, each `${Id}` and `${Id.Attribute}` of its Fn::Sub written `Ref Id`, `GetAtt Id.Attribute`. */
  const body = () => {
    const { DashboardName, DashboardBody } = resource(key, 'Dashboard').Properties as {
      DashboardName: { 'Fn::Sub': string };
      DashboardBody: { 'Fn::Sub': string };
    };
    // named per region too: a dashboard's name is the account's, across regions
    expect(DashboardName).toEqual({ 'Fn::Sub': `${STACK}-\${AWS::Region}` });
    const text = DashboardBody['Fn::Sub'].replace(/\$\{([^}]+)\}/g, (_, name: string) => {
      if (name === 'AWS::Region') return REGION;
      const [id = '', attribute] = name.split('.');
      expect(typeOf(id), `${name}: no resource ${id} in the template`).toBeDefined();
      return attribute ? `GetAtt ${id}.${attribute}` : `Ref ${id}`;
    });
    return JSON.parse(text) as {
      widgets: { type: string; properties: Record<string, unknown> }[];
    };
  };
  const widgetsOf = (type: string) => body().widgets.filter((widget) => widget.type === type);
  /** The resource a reference names, which must be of `type`. */
  const named = (reference: unknown, pattern: RegExp, type: string) => {
    const id = pattern.exec(String(reference))?.[1] ?? '';
    expect([reference, typeOf(id)]).toEqual([reference, type]);
    return id;
  };

  type Row = (string | { stat?: string; expression?: string })[];
  /** Each row of its graphs, with the graph's statistic. */
  const rows = () =>
    widgetsOf('metric').flatMap(({ properties }) => {
      expect(properties.region).toBe(REGION);
      return (properties.metrics as Row[]).map((row) => ({ row, stat: properties.stat }));
    });
  /** Every metric its graphs name: namespace, name, dimensions, statistic. */
  const metrics = () =>
    rows()
      .filter(({ row }) => typeof row[0] === 'string')
      .map(({ row, stat }) => {
        const [namespace, name, ...pairs] = row.filter((item) => typeof item === 'string');
        const options = row.find((item) => typeof item === 'object') ?? {};
        const dimensions: Record<string, string> = {};
        for (let i = 0; i < pairs.length; i += 2) dimensions[pairs[i] ?? ''] = pairs[i + 1] ?? '';
        return { namespace, name, dimensions, stat: options.stat ?? stat };
      });
  /** Every search of its graphs: the schema's namespace and dimension, the metric, the term, the statistic. */
  const searches = () =>
    rows()
      .filter(({ row }) => typeof row[0] === 'object')
      .map(({ row }) => {
        const { expression = '' } = row[0] as { expression?: string };
        const [, namespace = '', dimension, name = '', term = '', stat] =
          /^SEARCH\('\{([\w/]+),(\w+)\} MetricName="(\w+)" ([\w-]+)', '(\w+)'\)$/.exec(
            expression,
          ) ?? [];
        expect([expression, name]).not.toEqual([expression, '']);
        return { namespace, dimension, name, term, stat };
      });

  // the AWS metrics it draws, each with the dimensions it is published by
  const AWS_METRICS: Record<string, { dimensions: string[]; names: string[] }> = {
    'AWS/Lambda': { dimensions: ['FunctionName'], names: ['IteratorAge'] },
    'AWS/ApiGateway': { dimensions: ['ApiId', 'Stage'], names: ['Count', '4xx', '5xx', 'Latency'] },
    'AWS/SQS': { dimensions: ['QueueName'], names: ['ApproximateAgeOfOldestMessage'] },
  };
  /** What each dimension's value must name: a resource of the template, or the value itself. */
  const dimensionValue = (dimension: string, value: string) => {
    switch (dimension) {
      case 'ApiId':
        return named(value, /^Ref (\w+)$/, 'AWS::ApiGatewayV2::Api');
      case 'Stage':
        return expect(value).toBe(resource(key, 'HttpApiStage').Properties.StageName);
      case 'service':
        return expect(value).toBe(SERVICE_NAME);
      default:
        throw new Error(`the dashboard draws a metric by ${dimension}, which the test knows not`);
    }
  };

  const queues = () =>
    Object.keys(template().Resources).filter((id) => typeOf(id) === 'AWS::SQS::Queue');
  const streamFunctions = () =>
    mappingsOf(key)
      .filter(({ EventSourceArn }) => JSON.stringify(EventSourceArn).includes('StreamArn'))
      .map(({ FunctionName }) => (FunctionName as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0]);

  it("draws only metrics that exist, each by resources of the stage's template", () => {
    // the namespace the functions publish our metrics in
    const { Environment } = resource(key, 'CreatePlantLambdaFunction').Properties as {
      Environment: { Variables: { METRICS_NAMESPACE: string } };
    };
    const ours = { dimensions: ['service'], names: [...CUSTOM_METRICS] as string[] };
    const known = { ...AWS_METRICS, [Environment.Variables.METRICS_NAMESPACE]: ours };
    const drawn = metrics();
    expect(drawn.length).toBeGreaterThan(0);
    for (const { namespace = '', name, dimensions, stat } of drawn) {
      const metric = `${namespace} ${name}`;
      expect(known[namespace]?.names, metric).toContain(name);
      expect([metric, Object.keys(dimensions)]).toEqual([metric, known[namespace]?.dimensions]);
      for (const [dimension, value] of Object.entries(dimensions)) dimensionValue(dimension, value);
      expect([metric, stat]).toEqual([metric, expect.stringMatching(/^(Sum|Maximum|p\d+)$/)]);
    }
    for (const { namespace, dimension, name } of searches()) {
      expect(AWS_METRICS[namespace]?.names, `${namespace} ${name}`).toContain(name);
      expect([name, [dimension]]).toEqual([name, AWS_METRICS[namespace]?.dimensions]);
    }
  });

  it("shows each route's requests, errors and p99 from its request lines, the API's, and every custom metric", () => {
    const routes = widgetsOf('log').find(({ properties }) =>
      String(properties.query).includes('by route'),
    );
    const query = String(routes?.properties.query);
    for (const name of ROUTE_NAMES)
      expect(query).toContain(`SOURCE 'Ref ${resourceName(name)}LogGroup'`);
    // the request line's fields (lib/http/requestTelemetry.ts)
    expect(query).toMatch(/count\(\*\) as answers, pct\(latencyMs, 99\) as p99 by route, status/);
    const api = metrics().filter(({ namespace }) => namespace === 'AWS/ApiGateway');
    expect(api.map(({ name, stat }) => `${name} ${stat}`)).toEqual(
      expect.arrayContaining(['Count Sum', '4xx Sum', '5xx Sum', 'Latency p99']),
    );
    const custom = metrics().filter(({ dimensions }) => 'service' in dimensions);
    expect(new Set(custom.map(({ name }) => name))).toEqual(new Set(CUSTOM_METRICS));
  });

  it("finds each queue's oldest message and each stream function's iterator age by the stack's name", () => {
    const { provider } = yamlOf('serverless.yml') as { provider: { stackName?: string } };
    expect(provider.stackName).toBeUndefined();
    expect(searches()).toEqual(
      [
        { namespace: 'AWS/SQS', dimension: 'QueueName', name: 'ApproximateAgeOfOldestMessage' },
        { namespace: 'AWS/Lambda', dimension: 'FunctionName', name: 'IteratorAge' },
      ].map((search) => ({ ...search, term: STACK, stat: 'Maximum' })),
    );
    // CloudFormation names a queue given no QueueName `<stack>-<LogicalId>-<suffix>`
    expect(queues().length).toBeGreaterThan(0);
    for (const id of queues()) expect(resource(key, id).Properties.QueueName).toBeUndefined();
    // osls names a function `<stack>-<name>`; a stream's functions alone publish IteratorAge
    expect(streamFunctions()).toHaveLength(hasOperator(stage) ? 2 : 1);
    for (const id of streamFunctions())
      expect(resource(key, id).Properties.FunctionName).toMatch(new RegExp(`^${STACK}-\\w+$`));
  });

  it('draws at most 50 metrics, so that it is one of the 3 free dashboards an account has', () => {
    const drawn = new Set(
      metrics().map(({ namespace, name, dimensions }) =>
        JSON.stringify([namespace, name, dimensions]),
      ),
    );
    // each search draws a metric of each resource it finds: each queue, each stream function
    expect(searches().map(({ name }) => name)).toEqual([
      'ApproximateAgeOfOldestMessage',
      'IteratorAge',
    ]);
    expect(drawn.size + queues().length + streamFunctions().length).toBeLessThanOrEqual(50);
  });

  it('shows the state of every alarm of the stage, and nothing else', () => {
    const alarms = Object.keys(template().Resources).filter(
      (id) => typeOf(id) === 'AWS::CloudWatch::Alarm',
    );
    const shown = widgetsOf('alarm').flatMap(({ properties }) =>
      (properties.alarms as string[]).map((arn) =>
        named(arn, /^GetAtt (\w+)\.Arn$/, 'AWS::CloudWatch::Alarm'),
      ),
    );
    expect(shown.sort()).toEqual(alarms.sort());
  });

  it("sums each delivery attempt's outcomes from the log lines of the functions that make them", () => {
    // the outcomes' query: the one that sums (the routes' table counts its lines by status)
    const queries = widgetsOf('log')
      .map(({ properties }) => {
        expect(properties.region).toBe(REGION);
        return String(properties.query);
      })
      .filter((query) => query.includes('sum('));
    expect(queries).toHaveLength(1);
    const query = queries[0] ?? '';
    const sources = [...query.matchAll(/SOURCE '([^']*)'/g)].map(([, group]) =>
      named(group, /^Ref (\w+)$/, 'AWS::Logs::LogGroup'),
    );
    const senders = ['DeliverToEndpoint', ...(hasOperator(stage) ? OPERATOR_FUNCTIONS : [])];
    expect(sources).toEqual(senders.map((name) => `${name}LogGroup`));
    const summed = [...query.matchAll(/sum\((\w+)\)/g)].map(([, field]) => field);
    for (const field of summed) expect(METRIC_NAMES).toContain(field);
    const endpoint = [
      'EndpointEventsDelivered',
      'EndpointAttemptsFailed',
      'EndpointEventsExhausted',
      'EndpointEventsDropped',
    ];
    const operator = ['WebhooksDelivered', 'WebhookAttemptsFailed', 'WebhooksDeadLettered'];
    expect(summed).toEqual([...endpoint, ...(hasOperator(stage) ? operator : [])]);
    expect(query).toMatch(/ by bin\(\w+\)$/);
  });

  it(`names ${hasOperator(stage) ? 'each' : 'nothing'} of the operator's webhook's functions and alarms`, () => {
    const { functions, resources } = yamlOf('infra', 'operatorWebhook.yml');
    const operator = [
      // a function by its log group
      ...Object.keys(functions).map(resourceName),
      // its queues are found by the search of the stack's name, not named
      ...Object.entries(resources.Resources as Record<string, Resource>)
        .filter(([, { Type }]) => Type === 'AWS::CloudWatch::Alarm')
        .map(([id]) => id),
    ];
    const text = JSON.stringify(body());
    for (const id of operator)
      expect([id, text.includes(` ${id}`)]).toEqual([id, hasOperator(stage)]);
  });
});
