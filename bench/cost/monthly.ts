// What a stage costs a month for a traffic profile (bench/cost/profiles/*.json), Infracost-style:
// every line a resource, its quantity × unit price = monthly. Usage lines are each route's and
// event's count × its cost a million (bench/results.json's `cost.rows`, by service); fixed lines
// are paid whatever the traffic: custom metrics, alarms, the dashboard, the queues' idle polling,
// storage kept, backups, keys. Prices and assumptions from ./prices.ts (us-east-1, on-demand, list
// prices); an account's free tier beside a line, never subtracted.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import * as z from 'zod';
import { DEFAULT_RETRY_SCHEDULE, retrySchedule } from '#lib/config/webhook.ts';
import { ATTEMPTS_KEPT_MS } from '#lib/endpointDeliveries/store.ts';
import { ROUTE_NAMES, ROUTES, type RouteName } from '#lib/routes/routeList.ts';
import {
  declaredFunctions,
  declaredWebhookResources,
  repoRoot,
  yamlOf,
} from '../../infra/local/paths.ts';
import { attemptItem, eventItem } from '../endpointItems.ts';
import { added, type Bill, GB, MILLION, scaled, sum as sumOf, total } from './model.ts';
import { ASSUMPTIONS, PRICES } from './prices.ts';

const share = z.number().min(0).max(1);
const count = z.number().int().nonnegative();
/** A usage file of bench/cost/profiles/: every field required, none unknown, each described. */
const profileSchema = z.strictObject({
  description: z.string().min(1).describe('a sentence: what the profile stands for and assumes'),
  stage: z
    .string()
    .min(1)
    .describe('the stage whose serverless.yml params apply ("dev", "prod", another: the defaults)'),
  rate: z
    .union([
      z.strictObject({ perSecond: z.number().positive() }),
      z.strictObject({ perMinute: z.number().positive() }),
    ])
    .describe('{ "perSecond": n } or { "perMinute": n }, n above 0'),
  routeMix: z
    .record(z.string(), share)
    .describe('{ "<route>": share, ... }, shares from 0 to 1 summing to 1'),
  endpointEvents: z
    .strictObject({ shareOfChanges: share, endpointsEach: z.number().nonnegative() })
    .describe('{ "shareOfChanges": 0 to 1, "endpointsEach": 0 or more }'),
  failedReceiverShare: share.describe('a share from 0 to 1'),
  timedOutReceiverShare: share.describe('a share from 0 to 1; with failedReceiverShare, at most 1'),
  operatorWebhook: z.boolean().describe('true or false'),
  plantsStored: z
    .strictObject({ items: count, averageItemBytes: z.number().positive() })
    .describe('{ "items": a whole number, "averageItemBytes": above 0 }'),
});
export type Profile = z.infer<typeof profileSchema> & { name: string };
const FIELDS = `only the fields ${Object.keys(profileSchema.shape).join(', ')}`;

/** A usage file's JSON as a profile, or an error naming the file and each field to fix. */
export const parseProfile = (name: string, json: unknown): Profile => {
  const parsed = profileSchema.safeParse(json);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((i) => {
        const field = String(i.path[0] ?? '');
        const hint =
          profileSchema.shape[field as keyof typeof profileSchema.shape]?.description ?? FIELDS;
        return `${i.path.join('.') || '(the file)'}: ${i.message}; write ${hint}`;
      });
  if (parsed.success) {
    const mix = parsed.data.routeMix;
    for (const route of Object.keys(mix))
      if (!(ROUTE_NAMES as string[]).includes(route))
        problems.push(`routeMix.${route}: not a route; the routes: ${ROUTE_NAMES.join(', ')}`);
    const sum = sumOf(Object.values(mix));
    if (Math.abs(sum - 1) > 1e-9)
      problems.push(`routeMix: the shares sum to ${sum}; make them sum to 1`);
    const { failedReceiverShare: failed, timedOutReceiverShare: timedOut } = parsed.data;
    if (failed + timedOut > 1)
      problems.push(
        `timedOutReceiverShare: with failedReceiverShare, ${failed + timedOut} of the deliveries; make the two sum to at most 1`,
      );
  }
  if (problems.length > 0)
    throw new Error(
      `${name}: fix ${problems.length === 1 ? 'this' : 'these'}:\n  ${problems.join('\n  ')}`,
    );
  return { ...(parsed.data as z.infer<typeof profileSchema>), name };
};

/** The profiles shipped, by file name, in order of traffic. */
export const loadProfiles = (dir = join(repoRoot, 'bench', 'cost', 'profiles')): Profile[] =>
  readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => {
      const path = join(dir, file);
      let json: unknown;
      try {
        json = JSON.parse(readFileSync(path, 'utf8'));
      } catch (error) {
        throw new Error(`${path}: not JSON: ${(error as Error).message}`);
      }
      return parseProfile(basename(file, '.json'), json);
    })
    .sort((a, b) => requestsPerSecond(a) - requestsPerSecond(b));

export const requestsPerSecond = ({ rate }: Pick<Profile, 'rate'>) =>
  'perSecond' in rate ? rate.perSecond : rate.perMinute / 60;
type Resource = { Type?: string; Properties?: Record<string, unknown> };

/** What a bill counts of a stage, with or without the operator's webhook, as the template says. */
export const stageOf = (operatorWebhook: boolean, stage: string) => {
  const operator = yamlOf('infra', 'operatorWebhook.yml') as {
    functions: Record<string, unknown>;
    resources: { Resources: Record<string, unknown> };
  };
  const inStage = (id: string) => operatorWebhook || !(id in operator.resources.Resources);
  const tables = yamlOf('infra', 'dynamodb.yml').Resources as Record<string, Resource>;
  const resources = Object.entries({
    ...tables,
    ...yamlOf('infra', 'alarms.yml').Resources,
    ...declaredWebhookResources(),
  } as Record<string, Resource>).flatMap(([id, r]) => (inStage(id) ? [r] : []));
  const alarms = resources.filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
  const metricsRead = (alarm: Resource) => {
    const metrics = alarm.Properties?.Metrics as { MetricStat?: unknown }[] | undefined;
    return metrics ? metrics.filter((m) => m.MetricStat !== undefined).length : 1;
  };
  const functions = Object.entries(
    declaredFunctions() as Record<string, { events?: Record<string, { batchSize?: unknown }>[] }>,
  ).filter(([name]) => operatorWebhook || !(name in operator.functions));
  const batchSizes = functions.flatMap(([name, f]) =>
    (f.events ?? []).flatMap(({ sqs, stream }) => {
      const source = sqs ?? stream;
      if (!source) return [];
      if (typeof source.batchSize !== 'number')
        throw new Error(`serverless.yml: ${name}'s batchSize is no number: write it as one`);
      return [source.batchSize];
    }),
  );
  type Index = { IndexName?: string; Projection?: { ProjectionType?: string } };
  const indexes = (tables.PlantsTable?.Properties?.GlobalSecondaryIndexes ?? []) as Index[];
  const params: Record<string, Record<string, unknown>> = yamlOf('serverless.yml').params;
  /** A param as the stage has it, and where from: its own params, or serverless.yml's default. */
  const param = (name: string) => {
    const own = params[stage]?.[name] !== undefined;
    const value = own ? params[stage]?.[name] : params.default?.[name];
    if (value === undefined)
      throw new Error(`serverless.yml gives no ${name} for stage ${stage} or by default`);
    return { value, from: `serverless.yml's ${own ? `params.${stage}` : 'default'} ${name}` };
  };
  const retention = param('logRetentionDays');
  // infra/dashboard.cjs deploys none when the param is 'false'
  const dashboard = param('dashboard');
  type Backups = { PointInTimeRecoveryEnabled?: boolean } | undefined;
  const pitr = (t?: Resource) =>
    (t?.Properties?.PointInTimeRecoverySpecification as Backups)?.PointInTimeRecoveryEnabled ===
    true;
  return {
    alarms: alarms.length,
    // one for a plain alarm, each MetricStat of a metric-math one
    alarmMetrics: sumOf(alarms.map(metricsRead)),
    // each queue a function reads is polled
    sqsEventSources: functions.flatMap(([, f]) => f.events ?? []).filter((e) => 'sqs' in e).length,
    kmsKeys: resources.filter((r) => r.Type === 'AWS::KMS::Key').length,
    // the table and each index projecting every attribute; one kept only on a condition (Fn::If)
    // is a past version's, not counted
    plantsTableCopies:
      1 + indexes.filter((i) => i.IndexName && i.Projection?.ProjectionType === 'ALL').length,
    logRetentionDays: Number(retention.value),
    logRetentionFrom: retention.from,
    dashboards: String(dashboard.value) === 'false' ? 0 : 1,
    dashboardFrom: `${dashboard.from} '${dashboard.value}'`,
    // the tables whose backups are continuous (point-in-time recovery)
    pitrTables: { plants: pitr(tables.PlantsTable), webhooks: pitr(tables.WebhooksTable) },
    // the fewest messages a consumer's batch takes: a full batch
    consumerBatchSize: Math.min(...batchSizes),
  };
};
export type Stage = ReturnType<typeof stageOf>;

/** results.json's `cost.rows`: dollars a million by service (`fullBatches`: a batch at a time). */
export type CostRows = Record<string, Bill & { what: string; fullBatches?: Bill }>;

type PriceName =
  | 'apiGatewayRequest'
  | 'apiGatewayRequestPast300Million'
  | 'customMetricMonth'
  | 'dashboardMonth'
  | 'alarmMetricMonth'
  | 'sqsRequest'
  | 'dynamoStorageGbMonth'
  | 'dynamoPitrGbMonth'
  | 'logsIngestedGb'
  | 'logsStoredGbMonth'
  | 'kmsKeyMonth'
  | 'xrayTraceRecorded'
  | 'xrayTraceScanned';
export type Prices = Record<PriceName, { usd: number; free?: number; from?: number }>;
export type Assumptions = Record<
  | 'hoursPerMonth'
  | 'logsStoredShare'
  | 'sqsIdlePollers'
  | 'sqsLongPollSeconds'
  | 'xraySampledPerSecond'
  | 'xraySampledShare'
  | 'xrayTracesScannedEach',
  { value: number }
>;

/**
 * A bill's line: what it prices, its quantity × unit price = its month (the list price); `free`:
 * what the account's free tier would take off it, were it the account's only use (not subtracted).
 */
const lineOf = (key: string, resource: string, quantity: number, unit: string, usd: number) => {
  const monthly = quantity * usd;
  return { key, resource, quantity, unit, unitPrice: usd, monthly, free: 0 };
};
/** What `quantity` of `price` a month the free tier covers, in dollars. */
const freeOf = (quantity: number, { usd, free = 0 }: Prices[PriceName]) =>
  Math.min(quantity, free) * usd;
/** A trace's price: recorded, and read as often as assumed. */
export const traceUsd = (prices: Prices = PRICES, assumptions: Assumptions = ASSUMPTIONS) =>
  prices.xrayTraceRecorded.usd +
  assumptions.xrayTracesScannedEach.value * prices.xrayTraceScanned.usd;
/** The attempts an event makes to an endpoint that never answers: the default schedule's, then given up. */
export const ATTEMPTS_BY_DEFAULT = (retrySchedule(DEFAULT_RETRY_SCHEDULE)?.length ?? 0) + 1;
const plantActions = (name: RouteName): readonly string[] =>
  (ROUTES[name].tables as { plants?: readonly string[] }).plants ?? [];
/** The routes that change a plant: each change is a stream record the fan-out reads. */
const changesPlants = (name: RouteName) =>
  plantActions(name).some((a) => ['PutItem', 'UpdateItem', 'DeleteItem'].includes(a));
/** The routes that add a plant: each an INSERT, the operator's plant.added. */
const addsPlants = (name: RouteName) => plantActions(name).includes('PutItem');
/** The routes that send a delivery themselves (a ping, a resend): each one delivery more. */
const sendsDeliveries = (name: RouteName) =>
  ((ROUTES[name] as { queues?: readonly string[] }).queues ?? []).includes('endpointDeliveries');
/** A profile's plant changes (stream records), plants added and deliveries (each change to its owner's endpoints, each ping and resend one) in `seconds`. */
export const countsOf = (profile: Profile, seconds = 1) => {
  const requests = seconds * requestsPerSecond(profile);
  const of = (which: (name: RouteName) => boolean) =>
    requests * sumOf(ROUTE_NAMES.filter(which).map((n) => profile.routeMix[n] ?? 0));
  const { shareOfChanges, endpointsEach } = profile.endpointEvents;
  const changes = of(changesPlants);
  const deliveries = changes * shareOfChanges * endpointsEach + of(sendsDeliveries);
  return { changes, adds: of(addsPlants), deliveries };
};
const valueBytes = (v: unknown) =>
  typeof v === 'number' ? Math.ceil(String(v).length / 2) + 1 : Buffer.byteLength(String(v));
/** An item's bytes as DynamoDB stores it: names and values (a number about half its digits), 100 B an item. */
const itemBytes = (item: Record<string, unknown>) =>
  100 + sumOf(Object.entries(item).map(([k, v]) => Buffer.byteLength(k) + valueBytes(v)));
/** The webhooks table's items a delivery keeps 14 days: each attempt's, and its event's (the bench's, its body's data a plant). */
export const DELIVERY_ITEM_BYTES = {
  attempt: itemBytes(unmarshall(attemptItem(1))),
  event: itemBytes(unmarshall(eventItem())),
};

/** A unit's invocations by function: a delivery's, one an attempt. */
type Invoked = Record<string, number>;
const [DELIVER, OPERATOR] = ['deliverToEndpoint', 'deliverPlantAdded'];
/** The usage lines beside the routes', each as its bill words it and in what unit. */
const USAGE = {
  fanOut: ['each plant change read from the stream (queueEndpointEvents)', 'changes'],
  endpointDelivered: ["deliveries to callers' endpoints, answered at once", 'deliveries'],
  endpointRetried: ["deliveries to callers' endpoints, failed once then delivered", 'deliveries'],
  endpointTimedOut: [
    "deliveries to callers' endpoints that never answer: every attempt times out",
    'deliveries',
  ],
  operatorDelivered: ["the operator's plant.added, answered at once", 'events'],
  operatorRetried: ["the operator's plant.added, failed once then delivered", 'events'],
} as const;

/** `profile`'s month on `stage`: arithmetic on rows and prices; the metrics are the caller's. */
export const monthlyBill = ({
  profile,
  rows,
  stage,
  customMetricCount,
  prices = PRICES,
  assumptions = ASSUMPTIONS,
}: {
  profile: Profile;
  rows: CostRows;
  stage: Stage;
  customMetricCount: number;
  prices?: Prices;
  assumptions?: Assumptions;
}) => {
  const row = (name: string) => {
    const r = rows[name];
    if (!r) throw new Error(`no cost row ${name} in bench/results.json: run npm run bench`);
    return r;
  };
  const monthSeconds = assumptions.hoursPerMonth.value * 3600;
  const requests = requestsPerSecond(profile) * monthSeconds;
  const routes = ROUTE_NAMES.filter((name) => (profile.routeMix[name] ?? 0) > 0);
  const { changes, adds, deliveries } = countsOf(profile, monthSeconds);
  const { failedReceiverShare: failed, timedOutReceiverShare: timedOut } = profile;
  const { xraySampledPerSecond: reservoir, xraySampledShare: rate } = assumptions;
  /** Of `perSecond` invocations of a function, those X-Ray's default sampling rule traces. */
  const sampled = (perSecond: number) =>
    Math.min(perSecond, reservoir.value) + rate.value * Math.max(0, perSecond - reservoir.value);

  /** The usage lines, each row as `priced` reads it, a consumer's messages `batchSize` a time. */
  const usageLines = (priced: (name: string) => Bill, batchSize: number) => {
    // `invoked`: each unit's invocations by function (a route's one; a delivery's one an attempt)
    const use = (key: string, quantity: number, perMillion: Bill, invoked: Invoked) => {
      const [resource, unit] =
        key in ROUTES ? [row(key).what, 'requests'] : USAGE[key as keyof typeof USAGE];
      const per = quantity / (key in ROUTES ? 1 : batchSize);
      const line = {
        ...lineOf(key, resource, quantity, unit, total(perMillion) / MILLION),
        byService: scaled(perMillion, quantity / MILLION),
        monthlyInFullBatches: 0,
        invocations: Object.entries(invoked).map(([f, n]) => [f, n * per] as const),
      };
      return quantity > 0 ? [line] : [];
    };
    // the rows price 1 and 10 endpoints: the fan-out, and each endpoint's pair of attempts (the
    // first failed, the second delivered), apart; one that answers at once is half a pair (the
    // failed attempt's own write and send halved in: an upper bound)
    const toOne = priced('plantAddedTo1Endpoint');
    const pair = scaled(added(priced('plantAddedTo10Endpoints'), scaled(toOne, -1)), 1 / 9);
    const fanOut = added(toOne, scaled(pair, -1));
    const timedOutRow = priced('plantAddedTo10TimedOutEndpoints');
    const neverAnswered = scaled(added(timedOutRow, scaled(fanOut, -1)), 1 / 10);
    // timedOutReceiverShare is the callers' endpoints': the operator's own receiver fails once at most
    const operator = () => priced('operatorPlantAdded');
    const half = (bill: Bill) => scaled(bill, 0.5);
    return [
      ...routes.flatMap((name) =>
        use(name, requests * (profile.routeMix[name] ?? 0), priced(name), { [name]: 1 }),
      ),
      ...use('fanOut', changes, fanOut, { queueEndpointEvents: 1 }),
      ...use('endpointDelivered', deliveries * (1 - failed - timedOut), half(pair), {
        [DELIVER]: 1,
      }),
      ...use('endpointRetried', deliveries * failed, pair, { [DELIVER]: 2 }),
      ...use('endpointTimedOut', deliveries * timedOut, neverAnswered, {
        [DELIVER]: ATTEMPTS_BY_DEFAULT,
      }),
      ...(profile.operatorWebhook
        ? [
            ...use('operatorDelivered', adds * (1 - failed), half(operator()), { [OPERATOR]: 1 }),
            ...use('operatorRetried', adds * failed, operator(), {
              [OPERATOR]: 1,
              retryPlantAdded: 1,
            }),
          ]
        : []),
    ];
  };
  /** The traces of `lines`: each function's invocations a second, sampled by its own reservoir. */
  const tracesOf = (lines: ReturnType<typeof usageLines>) => {
    const byFunction = new Map<string, number>();
    for (const [f, n] of lines.flatMap((l) => l.invocations))
      byFunction.set(f, (byFunction.get(f) ?? 0) + n);
    return sumOf([...byFunction.values()].map((n) => sampled(n / monthSeconds) * monthSeconds));
  };
  // a row's other fields (its words, its total) are no service's: the bills read only the services'
  const batched = usageLines((name) => row(name).fullBatches ?? row(name), stage.consumerBatchSize);
  const inFullBatches = new Map(batched.map((l) => [l.key, l.monthly]));
  const usage = usageLines(row, 1).map((l) => ({
    ...l,
    monthlyInFullBatches: inFullBatches.get(l.key) ?? l.monthly,
  }));
  // API Gateway's list price past 300 million requests a month: each metered request's dollar less
  const gateway = prices.apiGatewayRequest.usd;
  const { usd: pastUsd, from = Infinity } = prices.apiGatewayRequestPast300Million;
  const metered = sumOf(usage.map((l) => l.byService.apiGateway)) / gateway;
  if (metered > from) {
    const words = `API Gateway HTTP API: the requests past the first ${from / MILLION} million of the month, at $${(pastUsd * MILLION).toFixed(2)} a million`;
    const tier = lineOf('apiGatewayTier', words, metered - from, 'requests', pastUsd - gateway);
    const byService = { ...added(), apiGateway: tier.monthly };
    usage.push({ ...tier, byService, monthlyInFullBatches: tier.monthly, invocations: [] });
  }
  // X-Ray bills each trace: one an invocation here, each linked to the trace that sent its message
  const scans = assumptions.xrayTracesScannedEach.value;
  const perTrace = traceUsd(prices, assumptions);
  const traces = tracesOf(usage);
  const sampling = `default sampling: ${reservoir.value} a second a function, then ${rate.value * 100}%`;
  const resource = `X-Ray traces recorded and read ${scans}× (${sampling})`;
  const tracesFree =
    freeOf(traces, prices.xrayTraceRecorded) + freeOf(traces * scans, prices.xrayTraceScanned);
  const tracing = {
    ...lineOf('tracing', resource, traces, 'traces', perTrace),
    free: tracesFree,
    monthlyInFullBatches: tracesOf(batched) * perTrace,
  };

  const { sqsEventSources: sources, alarmMetrics, logRetentionDays: days } = stage;
  const { sqsIdlePollers: pollers, sqsLongPollSeconds: poll, logsStoredShare } = assumptions;
  const { items, averageItemBytes } = profile.plantsStored;
  const tableGb = (items * averageItemBytes) / GB;
  // the webhooks table keeps each attempt, and each delivery's event (its body's data a plant), 14 days
  const keptMonths = ATTEMPTS_KEPT_MS / 1000 / monthSeconds;
  const attemptsOf = (l: (typeof usage)[number]) =>
    l.key.startsWith('endpoint') ? sumOf(l.invocations.map(([, n]) => n)) : 0;
  const { attempt: attemptBytes, event } = DELIVERY_ITEM_BYTES;
  const eventBytes = event + averageItemBytes;
  const webhooksGb =
    (keptMonths * (sumOf(usage.map(attemptsOf)) * attemptBytes + deliveries * eventBytes)) / GB;
  const pitrGb =
    (stage.pitrTables.plants ? tableGb : 0) + (stage.pitrTables.webhooks ? webhooksGb : 0);
  // the logs line of each row is its bytes at the ingestion price: kept compressed as long as retained
  const loggedGb = sumOf(usage.map((l) => l.byService.logs)) / prices.logsIngestedGb.usd;
  const resources = {
    customMetrics: 'CloudWatch custom metrics (EMF)',
    alarms: `CloudWatch alarms: ${stage.alarms}, reading ${alarmMetrics} metrics`,
    dashboard: `CloudWatch dashboard: ${stage.dashboards ? "the stage's" : 'none'} (${stage.dashboardFrom})`,
    idlePolling: `SQS idle polling: ${sources} event sources × ${pollers.value} pollers, a receive each ${poll.value} s`,
    dynamoStorage: `DynamoDB storage: ${items.toLocaleString('en-US')} plants of ${averageItemBytes} B, in the table and ${stage.plantsTableCopies - 1} indexes`,
    webhooksStorage: `DynamoDB storage: the webhooks table's attempts (${attemptBytes} B) and events (${eventBytes} B) of ${ATTEMPTS_KEPT_MS / 86_400_000} days`,
    pitr: `DynamoDB point-in-time recovery: the ${Object.entries(stage.pitrTables)
      .flatMap(([t, on]) => (on ? [t] : []))
      .join(' and ')} tables' size`,
    logStorage: `CloudWatch Logs kept ${days} days (${stage.logRetentionFrom}), compressed to ${logsStoredShare.value * 100}% of the bytes ingested (AWS's calculator)`,
    kms: 'KMS keys of our own: none (queues: SQS-managed keys; tables: aws/dynamodb; the webhook secret: aws/ssm, AWS managed)',
  };
  // a price's free tier is the account's once: the lines sharing the price share it, in order
  const used = new Map<PriceName, number>();
  const fix = (key: keyof typeof resources, quantity: number, unit: string, price: PriceName) => {
    const before = used.get(price) ?? 0;
    used.set(price, before + quantity);
    const free = freeOf(before + quantity, prices[price]) - freeOf(before, prices[price]);
    return { ...lineOf(key, resources[key], quantity, unit, prices[price].usd), free };
  };
  // each idle poller asks once per long poll, all month (a busy queue's receives are usage's)
  const polls = (sources * pollers.value * monthSeconds) / poll.value;
  const logGbMonths =
    (loggedGb * logsStoredShare.value * days) / (assumptions.hoursPerMonth.value / 24);
  const fixed = [
    fix('customMetrics', customMetricCount, 'metric-months', 'customMetricMonth'),
    fix('alarms', alarmMetrics, 'alarm metric-months', 'alarmMetricMonth'),
    fix('dashboard', stage.dashboards, 'dashboard-months', 'dashboardMonth'),
    fix('idlePolling', polls, 'requests', 'sqsRequest'),
    fix('dynamoStorage', tableGb * stage.plantsTableCopies, 'GB-months', 'dynamoStorageGbMonth'),
    fix('webhooksStorage', webhooksGb, 'GB-months', 'dynamoStorageGbMonth'),
    fix('pitr', pitrGb, 'GB-months', 'dynamoPitrGbMonth'),
    fix('logStorage', logGbMonths, 'GB-months', 'logsStoredGbMonth'),
    fix('kms', stage.kmsKeys, 'key-months', 'kmsKeyMonth'),
  ];
  const usageTotal = sumOf(usage.map((l) => l.monthly)) + tracing.monthly;
  const usageTotalInFullBatches =
    sumOf(usage.map((l) => l.monthlyInFullBatches)) + tracing.monthlyInFullBatches;
  const fixedTotal = sumOf(fixed.map((l) => l.monthly));
  const bill = { profile, usage, tracing, fixed, usageTotal, usageTotalInFullBatches, fixedTotal };
  return { ...bill, total: usageTotal + fixedTotal };
};

/**
 * A month's bill: each line's quantity × unit price = its month; the totals one message at a time
 * (an upper bound, a quiet stage's month) or a full batch at a time (the bound a busy stage nears).
 */
export type MonthlyBill = ReturnType<typeof monthlyBill>;
/** A usage bill's dollars by service, for the chart. */
export const usageByService = (bill: MonthlyBill): Bill =>
  added(...bill.usage.map((l) => l.byService));
