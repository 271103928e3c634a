// The monthly bill (bench/cost/monthly.ts): its arithmetic on a made-up usage file worked out by
// hand, a usage file that fails to load saying what to fix, the shipped profiles within their
// budget, the template's alarms, queue pollers and dashboard counted as infra/*.yml declares them,
// and every resource type of infra/ priced by a bill line or said to have no fixed price.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Bill } from '../../bench/cost/model.ts';
import {
  type Assumptions,
  type CostRows,
  DELIVERY_ITEM_BYTES,
  loadProfiles,
  monthlyBill,
  type Prices,
  parseProfile,
  type Stage,
  stageOf,
} from '../../bench/cost/monthly.ts';
import { RESOURCE_TYPES } from '../../bench/cost/prices.ts';
import { monthlyBills, monthlyOverBudget } from '../../bench/cost/report.ts';
import { repoRoot } from '../../infra/local/paths.ts';

const NONE: Bill = {
  apiGateway: 0,
  lambdaRequests: 0,
  lambdaDuration: 0,
  dynamodb: 0,
  sqs: 0,
  logs: 0,
  dataTransfer: 0,
};
/** A made-up row: dollars a million by service, the rest nothing. */
const row = (what: string, dollars: Partial<Bill>) => ({ what, ...NONE, ...dollars });

// the fan-out costs $0.50 a million, each endpoint's pair of attempts $2 (1 and 10 endpoints)
const rows: CostRows = {
  getPlant: row('GET /plants/{id}', { apiGateway: 1, lambdaRequests: 0.2 }),
  createPlant: row('POST /plants', { apiGateway: 1, dynamodb: 2, logs: 0.5 }),
  pingEndpoint: row('POST /webhooks/{id}/ping', { apiGateway: 1 }),
  plantAddedTo1Endpoint: {
    ...row('to 1', { lambdaRequests: 0.6, dynamodb: 0.1, sqs: 1.6, logs: 0.2 }),
    // a tenth of the requests: $0.52, the fan-out $0.32 and the pair $0.20
    fullBatches: { ...NONE, lambdaRequests: 0.06, dynamodb: 0.1, sqs: 0.16, logs: 0.2 },
  },
  plantAddedTo10Endpoints: {
    ...row('to 10', { lambdaRequests: 4.2, dynamodb: 0.1, sqs: 16, logs: 0.2 }),
    fullBatches: { ...NONE, lambdaRequests: 0.42, dynamodb: 0.1, sqs: 1.6, logs: 0.2 },
  },
  // the fan-out's $0.50, and $16 for each endpoint that never answers
  plantAddedTo10TimedOutEndpoints: row('to 10, timed out', {
    lambdaRequests: 0.2,
    lambdaDuration: 160,
    dynamodb: 0.1,
    logs: 0.2,
  }),
  operatorPlantAdded: {
    ...row('operator', { lambdaRequests: 0.4, sqs: 1.2, logs: 0.4 }),
    fullBatches: { ...NONE, lambdaRequests: 0.04, sqs: 0.12, logs: 0.4 },
  },
};
const prices: Prices = {
  apiGatewayRequest: { usd: 1 / 1e6 },
  // past 500,000 requests a month (AWS's tier: 300 million)
  apiGatewayRequestPast300Million: { usd: 0.9 / 1e6, from: 500_000 },
  customMetricMonth: { usd: 0.3, free: 10 },
  alarmMetricMonth: { usd: 0.1 },
  dashboardMonth: { usd: 3, free: 3 },
  sqsRequest: { usd: 0.4 / 1e6 },
  dynamoStorageGbMonth: { usd: 0.25 },
  dynamoPitrGbMonth: { usd: 0.2 },
  logsIngestedGb: { usd: 0.5 },
  logsStoredGbMonth: { usd: 0.03 },
  kmsKeyMonth: { usd: 1 },
  xrayTraceRecorded: { usd: 5 / 1e6 },
  xrayTraceScanned: { usd: 0.5 / 1e6 },
};
// a 100-hour month: 360,000 s
const assumptions: Assumptions = {
  hoursPerMonth: { value: 100 },
  logsStoredShare: { value: 0.15 },
  sqsIdlePollers: { value: 2 },
  sqsLongPollSeconds: { value: 20 },
  xraySampledPerSecond: { value: 1 },
  xraySampledShare: { value: 0.05 },
  xrayTracesScannedEach: { value: 1 },
};
const stage: Stage = {
  alarms: 2,
  alarmMetrics: 5,
  sqsEventSources: 3,
  kmsKeys: 1,
  plantsTableCopies: 3,
  logRetentionDays: 10,
  logRetentionFrom: "serverless.yml's default logRetentionDays",
  dashboards: 1,
  dashboardFrom: "serverless.yml's default dashboard 'true'",
  pitrTables: { plants: true, webhooks: true },
  consumerBatchSize: 10,
};
const usageFile = {
  description: 'two routes, the events of the creates, every fixed line',
  stage: 'dev',
  rate: { perSecond: 2 },
  routeMix: { getPlant: 0.75, createPlant: 0.25 },
  endpointEvents: { shareOfChanges: 0.5, endpointsEach: 2 },
  failedReceiverShare: 0.1,
  timedOutReceiverShare: 0,
  operatorWebhook: true,
  // 1 GiB of plants
  plantsStored: { items: 1_048_576, averageItemBytes: 1024 },
};

describe('monthlyBill', () => {
  const bill = monthlyBill({
    profile: parseProfile('small', usageFile),
    rows,
    stage,
    customMetricCount: 10,
    prices,
    assumptions,
  });
  const lines = [...bill.usage, bill.tracing, ...bill.fixed];
  const line = (key: string) => {
    const found = lines.find((l) => l.key === key);
    if (!found) throw new Error(`no line ${key}`);
    return found;
  };

  it('prices each route, change, delivery and event as worked out by hand', () => {
    // 2 a second for 360,000 s: 720,000 requests, three in four reads; each create a change
    expect(line('getPlant').quantity).toBeCloseTo(540_000);
    expect(line('getPlant').monthly).toBeCloseTo(0.648); // × $1.20 a million
    expect(line('createPlant').quantity).toBeCloseTo(180_000);
    expect(line('createPlant').monthly).toBeCloseTo(0.63); // × $3.50
    expect(line('fanOut').quantity).toBeCloseTo(180_000);
    expect(line('fanOut').monthly).toBeCloseTo(0.09); // × $0.50
    // half the changes to 2 endpoints: 180,000 deliveries, one in ten failing once
    expect(line('endpointDelivered').quantity).toBeCloseTo(162_000);
    expect(line('endpointDelivered').monthly).toBeCloseTo(0.162); // × half a pair, $1
    expect(line('endpointRetried').quantity).toBeCloseTo(18_000);
    expect(line('endpointRetried').monthly).toBeCloseTo(0.036); // × a pair, $2
    // the operator's event for each create
    expect(line('operatorDelivered').monthly).toBeCloseTo(0.162); // 162,000 × $1
    expect(line('operatorRetried').monthly).toBeCloseTo(0.036); // 18,000 × $2
    // 720,000 API Gateway requests, 220,000 past the tier's first 500,000 at $0.10 a million less
    expect(line('apiGatewayTier').quantity).toBeCloseTo(220_000);
    expect(line('apiGatewayTier').monthly).toBeCloseTo(-0.022);
    expect(bill.usageTotal).toBeCloseTo(1.764 - 0.022 + 6.1875); // and the traces
  });

  it('counts a delivery for each ping and resend, and the reservoir of X-Ray once a function', () => {
    const pings = monthlyBill({
      profile: parseProfile('pings', {
        ...usageFile,
        routeMix: { getPlant: 0.5, createPlant: 0.25, pingEndpoint: 0.25 },
      }),
      rows,
      stage,
      customMetricCount: 10,
      prices,
      assumptions,
    });
    const pingsLine = (key: string) => pings.usage.find((l) => l.key === key);
    // 180,000 creates to 2 endpoints half the time, and 180,000 pings: 360,000 deliveries
    expect(pingsLine('endpointDelivered')?.quantity).toBeCloseTo(324_000);
    expect(pingsLine('endpointRetried')?.quantity).toBeCloseTo(36_000);
    // a second: reads 1, creates, pings and fan-outs 0.5 each, the operator's 0.5 and 0.05 (all
    // traced); deliverToEndpoint's 0.9 + 2 × 0.1 together past its reservoir: 1 + 5% of 0.1
    expect(pings.tracing.quantity).toBeCloseTo((1 + 0.5 * 4 + 0.05 + 1.005) * 360_000);
  });

  it('prices each event with its messages a full batch at a time, the routes alike', () => {
    const inFullBatches = (key: string) => line(key) as (typeof bill.usage)[number];
    expect(inFullBatches('getPlant').monthlyInFullBatches).toBeCloseTo(0.648);
    expect(inFullBatches('fanOut').monthlyInFullBatches).toBeCloseTo(0.0576); // 180,000 × $0.32
    expect(inFullBatches('endpointDelivered').monthlyInFullBatches).toBeCloseTo(0.0162); // × $0.10
    expect(inFullBatches('endpointRetried').monthlyInFullBatches).toBeCloseTo(0.0036); // × $0.20
    expect(inFullBatches('operatorDelivered').monthlyInFullBatches).toBeCloseTo(0.04536); // × $0.28
    expect(inFullBatches('operatorRetried').monthlyInFullBatches).toBeCloseTo(0.01008); // × $0.56
    expect(bill.usageTotalInFullBatches).toBeCloseTo(1.41084 - 0.022 + 3.3363);
  });

  it("prices X-Ray's traces: each invocation's, sampled by the default rule a function at a time", () => {
    // a second: reads 1.5 (1 + 5% of 0.5 traced), creates 0.5, fan-outs 0.5, attempts 0.45 + 0.1
    // and the operator's 0.45 + 0.1 (all traced): 1,125,000 traces at $5.50 a million
    expect(bill.tracing.quantity).toBeCloseTo(1_125_000);
    expect(bill.tracing.monthly).toBeCloseTo(6.1875);
    // a full batch an invocation: the consumers' 576,000 a tenth
    expect(bill.tracing.monthlyInFullBatches).toBeCloseTo(606_600 * 5.5e-6);
  });

  it('prices the deliveries to endpoints that never answer, each its share of the timed-out row', () => {
    const down = monthlyBill({
      profile: parseProfile('down', { ...usageFile, timedOutReceiverShare: 0.05 }),
      rows,
      stage,
      customMetricCount: 10,
      prices,
      assumptions,
    });
    const downLine = (key: string) => down.usage.find((l) => l.key === key);
    expect(downLine('endpointTimedOut')?.quantity).toBeCloseTo(9_000);
    expect(downLine('endpointTimedOut')?.monthly).toBeCloseTo(0.144); // × $16
    expect(downLine('endpointDelivered')?.quantity).toBeCloseTo(153_000);
    expect(downLine('endpointRetried')?.quantity).toBeCloseTo(18_000);
    // 8 attempts each, every one traced: 72,000 traces more, 9,000 answered ones fewer
    expect(down.tracing.quantity).toBeCloseTo(1_125_000 + 72_000 - 9_000);
  });

  it('keeps the dollars by service of each usage line', () => {
    const byService = (key: string) => bill.usage.find((l) => l.key === key)?.byService;
    expect(byService('createPlant')?.dynamodb).toBeCloseTo(0.36); // 180,000 × $2
    expect(byService('endpointRetried')?.sqs).toBeCloseTo(0.0288); // 18,000 × $1.60
  });

  it('prices the fixed lines and the data kept as worked out by hand', () => {
    expect(line('customMetrics').monthly).toBeCloseTo(3); // 10 × $0.30
    expect(line('alarms').monthly).toBeCloseTo(0.5); // 5 metrics read × $0.10
    expect(line('dashboard').monthly).toBe(3); // 1 × $3
    // 3 event sources × 2 pollers, a receive each 20 s for 360,000 s
    expect(line('idlePolling').quantity).toBeCloseTo(108_000);
    expect(line('idlePolling').monthly).toBeCloseTo(0.0432);
    expect(line('dynamoStorage').quantity).toBeCloseTo(3); // 1 GiB, table and 2 indexes
    expect(line('dynamoStorage').monthly).toBeCloseTo(0.75);
    // 198,000 attempts of 320 B and 180,000 events of 299 B + a plant's 1,024, kept 14 days of a
    // 100-hour month (3.36 months): 0.94347 GiB-months
    expect(line('webhooksStorage').quantity).toBeCloseTo(0.94347, 5);
    expect(line('webhooksStorage').monthly).toBeCloseTo(0.2358668, 6);
    expect(line('pitr').monthly).toBeCloseTo(0.3886934, 6); // both tables: 1.94347 GiB × $0.20
    // logs: $0.09 + $0.036 + $0.0324 + $0.0072 at $0.50 a GB: 0.3312 GB, kept 10 of 100/24 days,
    // stored at 15%
    expect(line('logStorage').quantity).toBeCloseTo(0.119232);
    expect(line('logStorage').monthly).toBeCloseTo(0.00357696);
    expect(line('kms').monthly).toBe(1);
    expect(bill.fixedTotal).toBeCloseTo(8.9213371, 6);
    expect(bill.total).toBeCloseTo(1.764 - 0.022 + 6.1875 + 8.9213371);
  });

  it("shows the account's free tier beside a line, never taken off its list price", () => {
    expect(line('customMetrics').free).toBeCloseTo(3); // the first 10 free: all 10
    expect(line('dashboard').free).toBe(3); // the first 3 free
    expect(line('alarms').free).toBe(0); // none given
    expect(bill.fixedTotal).toBeCloseTo(8.9213371, 6);
  });

  it('gives a free tier once, to the lines sharing its price in turn', () => {
    // 3.5 GB free: the plants' 3 GB take 3 of it, the webhooks table's 0.94 GB the last 0.5
    const storage = { ...prices.dynamoStorageGbMonth, free: 3.5 };
    const shared = monthlyBill({
      profile: parseProfile('small', usageFile),
      ...{ rows, stage, customMetricCount: 10, assumptions },
      prices: { ...prices, dynamoStorageGbMonth: storage },
    }).fixed;
    const freeOf = (key: string) => shared.find((l) => l.key === key)?.free;
    expect(freeOf('dynamoStorage')).toBeCloseTo(0.75); // 3 GB × $0.25
    expect(freeOf('webhooksStorage')).toBeCloseTo(0.125); // 0.5 GB × $0.25
  });

  it("sizes the webhooks table's items as DynamoDB stores them", () => {
    // an attempt: 51 B of names, 169 of values (the keys 34 and 61, the id 26, the type 11, the
    // time 24, the numbers 2 + 3 + 2 + 6), 100 of overhead
    expect(DELIVERY_ITEM_BYTES.attempt).toBe(320);
    // an event: 26 B of names, 173 of values (its body 94 of them), 100 of overhead
    expect(DELIVERY_ITEM_BYTES.event).toBe(299);
  });

  it('makes every line its quantity × unit price', () => {
    for (const l of lines) expect(l.monthly).toBeCloseTo(l.quantity * l.unitPrice, 12);
  });

  it("leaves out the operator's events when its webhook is off", () => {
    const off = monthlyBill({
      profile: parseProfile('off', { ...usageFile, operatorWebhook: false }),
      rows,
      stage,
      customMetricCount: 10,
      prices,
      assumptions,
    });
    expect(off.usage.map((l) => l.key)).not.toContain('operatorDelivered');
    expect(off.usageTotal).toBeCloseTo(
      1.764 - 0.022 - 0.162 - 0.036 + (1_125_000 - 198_000) * 5.5e-6,
    );
  });

  it('names a cost row it lacks', () => {
    const { createPlant: _, ...withoutCreate } = rows;
    expect(() =>
      monthlyBill({
        profile: parseProfile('small', usageFile),
        rows: withoutCreate,
        stage,
        customMetricCount: 10,
      }),
    ).toThrow('no cost row createPlant in bench/results.json: run npm run bench');
  });
});

describe('a usage file', () => {
  it('that lacks a field, has one wrong or one unknown says what to write', () => {
    const { plantsStored: _, ...missing } = usageFile;
    const broken = { ...missing, rate: { perHour: 60 }, region: 'us-east-1' };
    expect(() => parseProfile('broken', broken)).toThrow(
      [
        'broken: fix these:',
        '  rate: Invalid input; write { "perSecond": n } or { "perMinute": n }, n above 0',
        '  plantsStored: Invalid input: expected object, received undefined; write { "items": a whole number, "averageItemBytes": above 0 }',
        '  (the file): Unrecognized key: "region"; write only the fields description, stage, rate, routeMix, endpointEvents, failedReceiverShare, timedOutReceiverShare, operatorWebhook, plantsStored',
      ].join('\n'),
    );
  });

  it('whose mix names no route or does not sum to 1 says what to write', () => {
    const mix = { getPlant: 0.5, waterPlant: 0.4 };
    let message = '';
    try {
      parseProfile('broken', { ...usageFile, routeMix: mix });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('broken: fix these:');
    expect(message).toContain('routeMix.waterPlant: not a route; the routes: listPlants, ');
    expect(message).toContain('routeMix: the shares sum to 0.9; make them sum to 1');
  });

  it('whose receivers fail and never answer more than every delivery says what to write', () => {
    expect(() =>
      parseProfile('broken', {
        ...usageFile,
        failedReceiverShare: 0.5,
        timedOutReceiverShare: 0.6,
      }),
    ).toThrow(
      'timedOutReceiverShare: with failedReceiverShare, 1.1 of the deliveries; make the two sum to at most 1',
    );
  });

  it('that is not JSON names its file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'));
    writeFileSync(join(dir, 'bad.json'), '{ "rate": ');
    expect(() => loadProfiles(dir)).toThrow(`${join(dir, 'bad.json')}: not JSON`);
  });
});

describe('the shipped profiles', () => {
  const { cost } = JSON.parse(readFileSync(join(repoRoot, 'bench', 'results.json'), 'utf8')) as {
    cost: { rows: CostRows };
  };
  const bills = monthlyBills(cost.rows);

  it('are the three traffic levels, the dev stage without the operator', () => {
    expect(bills.map((b) => b.profile.name)).toEqual(['dev', 'steady10rps', 'busy1000rps']);
    expect(bills[0]?.profile.operatorWebhook).toBe(false);
  });

  it('cost no more than their monthly budget, as the bench checks it', () => {
    expect(monthlyOverBudget(bills)).toEqual([]);
    // the check can fail: each over half its bill
    const halves = Object.fromEntries(bills.map((b) => [b.profile.name, b.total / 2]));
    expect(monthlyOverBudget(bills, halves)).toHaveLength(3);
    expect(monthlyOverBudget(bills, {})[0]).toMatch(/^dev: no monthly budget/);
  });
});

describe('the stage as the template declares it', () => {
  const text = (...path: string[]) => readFileSync(join(repoRoot, ...path), 'utf8');
  const occurrences = (s: string, pattern: RegExp) => s.match(pattern)?.length ?? 0;
  // independently of the YAML parse: each alarm reads one metric, or each MetricStat it lists
  const alarmsIn = (files: string[]) => {
    const all = files.map((f) => text('infra', f)).join('\n');
    const alarms = occurrences(all, /Type: AWS::CloudWatch::Alarm/g);
    const mathAlarms = occurrences(all, /^\s+Metrics:\s*$/gm);
    return { alarms, alarmMetrics: alarms - mathAlarms + occurrences(all, /MetricStat:/g) };
  };
  const sqsSources = (...files: string[][]) =>
    files.reduce((n, f) => n + occurrences(text(...f), /^\s+- sqs:\s*$/gm), 0);

  it('counts the alarms and the metrics they read', () => {
    const every = ['alarms.yml', 'webhooks.yml'];
    expect(stageOf(false, 'dev')).toMatchObject(alarmsIn(every));
    expect(stageOf(true, 'dev')).toMatchObject(alarmsIn([...every, 'operatorWebhook.yml']));
  });

  it("counts each SQS event source, the operator's only with its webhook", () => {
    expect(stageOf(false, 'dev').sqsEventSources).toBe(sqsSources(['serverless.yml']));
    expect(stageOf(true, 'dev').sqsEventSources).toBe(
      sqsSources(['serverless.yml'], ['infra', 'operatorWebhook.yml']),
    );
  });

  it('bills the dashboard of every stage but one given dashboard false (dev), and says why', () => {
    expect(stageOf(false, 'dev')).toMatchObject({
      dashboards: 0,
      dashboardFrom: "serverless.yml's params.dev dashboard 'false'",
    });
    expect(stageOf(true, 'prod').dashboards).toBe(1);
    expect(stageOf(true, 'staging')).toMatchObject({
      dashboards: 1,
      dashboardFrom: "serverless.yml's default dashboard 'true'",
      logRetentionFrom: "serverless.yml's default logRetentionDays",
    });
  });

  it('prices every resource type infra/ declares, or says why it has no fixed price', () => {
    // the files serverless.yml names, and the operator's webhook's, which its .cjs reads
    const files = [...text('serverless.yml').matchAll(/\$\{file\(infra\/([\w.]+)\)/g)];
    const types = [...files.map(([, file]) => file), 'operatorWebhook.yml'].flatMap((file) =>
      [...text('infra', file ?? '').matchAll(/Type: '?(AWS::[\w:]+)/g)].map(([, type]) => type),
    );
    expect(types).toContain('AWS::CloudWatch::Dashboard');
    for (const type of types) expect(RESOURCE_TYPES, type).toHaveProperty([type as string]);
    const fixedLines = monthlyBill({
      profile: parseProfile('small', usageFile),
      rows,
      stage,
      customMetricCount: 10,
    }).fixed.map((l) => l.key);
    for (const [type, priced] of Object.entries(RESOURCE_TYPES))
      if ('line' in priced) expect(fixedLines, type).toContain(priced.line);
      else expect(priced.none, type).toMatch(/\w/);
  });

  it("takes the stage's log retention from serverless.yml's params", () => {
    const days = (stageName: string) =>
      Number(
        new RegExp(`^  ${stageName}:\\n(?:    .*\\n)*?    logRetentionDays: (\\d+)`, 'm').exec(
          text('serverless.yml'),
        )?.[1],
      );
    expect(stageOf(false, 'dev').logRetentionDays).toBe(days('default'));
    expect(stageOf(false, 'prod').logRetentionDays).toBe(days('prod'));
  });
});
