// The cost of a million of each route and event at the deployed settings (serverless.yml's memory),
// each function's cost and modelled latency at each memory size and the cheapest within the
// limits, and the create's peers' cost: printed, returned for bench/results.json, and on a complete
// run drawn (bench/cost-*.svg) and written into docs/performance.md's "Cost" and monthly bills. The
// budget check fails the bench when a row costs more than 5% over bench/cost-budget.json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_ATTEMPT_TIMEOUT_MS } from '#lib/config/webhook.ts';
import { ROUTE_NAMES, ROUTES, routeKey } from '#lib/routes/routeList.ts';
import { CUSTOM_METRICS } from '#lib/telemetry.ts';
import { declaredFunctions, repoRoot, yamlOf } from '../../infra/local/paths.ts';
import { type FunctionName, functions, PEERS_KIND } from '../functions.ts';
import { markdownTable, out } from '../settings.ts';
import type { Figures, Usage } from '../stats.ts';
import { costChart } from './chart.ts';
import * as model from './model.ts';
import { added, type Bill, billOf, SERVICES, scaled, total, withMore } from './model.ts';
import * as month from './monthly.ts';
import { ASSUMPTIONS, PRICES, STREAM_READS_FREE } from './prices.ts';

// What a failed attempt does beside the delivered one the bench measures, as the code does it: its
// next attempt's message sent (lib/operatorWebhook/attempt.ts: to the retry queue) and, to a
// caller's endpoint, the endpoint marked failing (lib/endpointDeliveries/deliverToEndpoint.ts: one
// small UpdateItem)
const SENT_AGAIN = { sqsCalls: { SendMessageBatch: 1 }, sqsWaits: 1, sqsRequests: 1 };
const MARKED_FAILING = { dynamoCalls: { UpdateItem: 1 }, dynamoWaits: 1, writeUnits: 1 };

/** A serverless.yml value as written, or the `${self:custom.<name>}` it names. */
type Custom = Record<string, unknown>;
const settingOf = (value: unknown, custom: Custom) => {
  const name = typeof value === 'string' && /^\$\{self:custom\.(\w+)\}$/.exec(value)?.[1];
  const resolved = name ? custom[name] : value;
  if (typeof resolved !== 'number')
    throw new Error(`serverless.yml: ${String(value)} is no number`);
  return resolved;
};
/** A function as serverless.yml declares it (its own, or the operator's webhook's file). */
type Declared = { timeout?: number; memorySize?: number; events?: Record<string, Source>[] };
type Source = Record<string, unknown>;
/**
 * A consumer's lanes (its events, settings resolved through `custom`) at the busiest profile: the
 * main lane's receivers quick (the assumption); the slow lane's (a failed attempt's retry, a timed-out
 * endpoint's every attempt) and the operator's retries' slow or timed out, a batch as its slowest.
 */
export const lanesOf = (
  name: string,
  declared: Declared,
  custom: Custom,
  providerTimeoutS: number,
  profile = month.loadProfiles().at(-1) as month.Profile,
): model.Lane[] => {
  const { changes, adds, deliveries } = month.countsOf(profile);
  const { failedReceiverShare: failed, timedOutReceiverShare: timedOut } = profile;
  const [quick, slow] = [ASSUMPTIONS.receiverMs.value, DEFAULT_ATTEMPT_TIMEOUT_MS];
  const retried = failed + timedOut * month.ATTEMPTS_BY_DEFAULT;
  // by function and the queue or table it reads (its event's arn); others post to no receiver
  const demands: Record<string, [number, number]> = {
    // a first attempt, but to an endpoint that never answers
    'deliverToEndpoint EndpointDeliveryQueue': [deliveries * (1 - timedOut), quick],
    'deliverToEndpoint EndpointSlowDeliveryQueue': [deliveries * retried, slow],
    'retryPlantAdded WebhookRetryQueue': [adds * failed, slow],
    'deliverPlantAdded PlantsTable': [adds, quick],
  };
  const timeoutS = declared.timeout ?? providerTimeoutS;
  return (declared.events ?? []).map(({ stream, sqs }) => {
    const source = stream ?? sqs;
    if (!source) throw new Error(`serverless.yml: ${name} has an event of no stream or sqs`);
    const at = (key: string) =>
      source[key] === undefined ? undefined : settingOf(source[key], custom);
    const lane = `${name} ${String(source.arn).split('.')[0]}`;
    const [perSecond, receiverMs] = demands[lane] ?? [changes, 0];
    const batchesAtOnce = stream
      ? // Lambda's default parallelizationFactor is 1
        model.STREAM_SHARDS * (at('parallelizationFactor') ?? 1)
      : at('maximumConcurrency');
    const batchSize = settingOf(source.batchSize, custom);
    return { batchSize, batchesAtOnce, timeoutS, perSecond, receiverMs };
  });
};

/**
 * Each function as serverless.yml deploys it: its trigger and a consumer's feed, its memory (its
 * own, a route's custom.memorySize, or the provider's), and Lambda's START, END and REPORT lines
 * unless loggingConfig drops its INFO lines (JSON at INFO writes its own: priced as the Text lines).
 */
const deployedSettings = () => {
  const { provider, custom } = yamlOf('serverless.yml') as {
    provider: { memorySize: number; timeout: number; logs?: { lambda?: Record<string, string> } };
    custom: { memorySize?: Record<string, number> } & Record<string, unknown>;
  };
  const own = declaredFunctions() as Record<string, Declared>;
  const { logFormat, systemLogLevel } = provider.logs?.lambda ?? {};
  const platformLogBytes =
    logFormat === 'JSON' && systemLogLevel === 'WARN' ? 0 : ASSUMPTIONS.platformLogBytes.value;
  return Object.fromEntries(
    functions.map((name) => {
      const declared = own[name];
      const source = Object.keys(declared?.events?.[0] ?? {})[0];
      const trigger: model.Trigger =
        source === 'stream' ? 'stream' : source === 'sqs' ? 'queue' : 'http';
      const memoryMb = declared?.memorySize ?? custom.memorySize?.[name] ?? provider.memorySize;
      const consumer = declared && trigger !== 'http';
      const lanes = consumer ? lanesOf(name, declared, custom, provider.timeout) : undefined;
      return [name, { trigger, memoryMb, platformLogBytes, lanes }];
    }),
  ) as Record<FunctionName, model.Deployed & { trigger: model.Trigger; lanes?: model.Lane[] }>;
};
type DeployedSettings = ReturnType<typeof deployedSettings>;

/**
 * The rows: each route measured, then each event kind whose functions were measured, priced one
 * message at a time (an upper bound) and, as `fullBatches`, its consumers' messages a full batch
 * at a time (serverless.yml's batchSize: the lower bound a busy stage nears).
 */
const rowsOf = (figures: Figures, deployed: DeployedSettings) => {
  const usageOf = (name: FunctionName) => figures[name]?.usage.ours;
  // each message's sends in a batch: `sendEntries` entries (a fan-out's, one per endpoint)
  const pricer =
    (batched: boolean) =>
    (name: FunctionName, usage: Usage, receiverMs?: number, sendEntries = 1) =>
      billOf(usage, deployed[name].trigger, deployed[name], receiverMs, {
        size: batched ? (deployed[name].lanes?.[0]?.batchSize ?? 1) : 1,
        sendEntries,
      });
  type Price = ReturnType<typeof pricer>;
  const rows: { name: string; what: string; bill: Bill; fullBatches?: Bill }[] = [];
  /** An event's row: priced one message at a time, and a full batch at a time. */
  const event = (name: string, what: string, priced: (price: Price) => Bill) =>
    rows.push({ name, what, bill: priced(pricer(false)), fullBatches: priced(pricer(true)) });
  for (const name of ROUTE_NAMES) {
    const usage = usageOf(name);
    if (usage) rows.push({ name, what: routeKey(ROUTES[name]), bill: pricer(false)(name, usage) });
  }
  const deliver = usageOf('deliverPlantAdded');
  const retry = usageOf('retryPlantAdded');
  if (deliver && retry) {
    const failedFirst = withMore(deliver, SENT_AGAIN);
    event(
      'operatorPlantAdded',
      "the operator's plant.added (attempt 1 fails, attempt 2 delivered)",
      (price) => added(price('deliverPlantAdded', failedFirst), price('retryPlantAdded', retry)),
    );
  }
  const fanOut = usageOf('queueEndpointEvents');
  const attempt = usageOf('deliverToEndpoint');
  if (fanOut && attempt) {
    // the second attempt as the measured first: its health update (a quick answer counted on the
    // slow lane) for the event kept with the first (each one write unit for a plant of this size)
    const failedFirst = withMore(attempt, { ...SENT_AGAIN, ...MARKED_FAILING });
    const perEndpoint = (price: Price) =>
      added(price('deliverToEndpoint', failedFirst), price('deliverToEndpoint', attempt));
    for (const n of [1, 10]) {
      const s = n === 1 ? '' : 's';
      event(
        `plantAddedTo${n}Endpoint${s}`,
        `plant.added to ${n} endpoint${s} (each: attempt 1 fails, attempt 2 delivered)`,
        (price) =>
          added(price('queueEndpointEvents', fanOut, undefined, n), scaled(perEndpoint(price), n)),
      );
    }
    // receivers that never answer: every attempt of the default schedule waits the whole default
    // timeout and fails, the last one too (its next send not made: an upper bound); a batch's
    // attempts wait their timeouts at once
    const attempts = month.ATTEMPTS_BY_DEFAULT;
    const timeoutMs = DEFAULT_ATTEMPT_TIMEOUT_MS;
    event(
      'plantAddedTo10TimedOutEndpoints',
      `plant.added to 10 endpoints that time out (each: ${attempts} attempts of ${timeoutMs / 1000} s, then given up)`,
      (price) =>
        added(
          price('queueEndpointEvents', fanOut, undefined, 10),
          scaled(price('deliverToEndpoint', failedFirst, timeoutMs), 10 * attempts),
        ),
    );
  }
  return rows;
};

/** Each function at each size, the size chosen, calibrated by the create's floor (none without). */
export const memoryOf = (figures: Figures, deployed: DeployedSettings = deployedSettings()) => {
  const reference = figures[PEERS_KIND]?.usage.baseline;
  return Object.fromEntries(
    functions.flatMap((name) => {
      const f = figures[name];
      if (!f) return [];
      const { trigger, memoryMb: deployedMb, lanes } = deployed[name];
      const usage = reference ? model.calibrated(f.usage.ours, reference) : f.usage.ours;
      const choice = model.chooseMemory(usage, f.peakRssMb.ours, trigger, deployed[name], lanes);
      const { sizes, chosen, nearest } = choice;
      const picked = chosen && reference ? { chosenMb: chosen.memoryMb, nearest } : {};
      return [[name, { deployedMb, trigger, ...(lanes && { lanes }), ...picked, sizes }]];
    }),
  );
};

/** The create's peers and references (bench/functions.ts), each doing the floor's DynamoDB work. */
const peersOf = (figures: Figures, deployed: DeployedSettings) => {
  const create = figures[PEERS_KIND];
  if (!create?.peers) return undefined;
  const floor = create.usage.baseline;
  const http = (usage: Usage) => billOf(usage, 'http', deployed.createPlant);
  const bills: Record<string, Bill> = { ours: http(create.usage.ours), floor: http(floor) };
  for (const [peer, { usage }] of Object.entries(create.peers))
    bills[peer] = http({ ...floor, ...usage });
  return bills;
};

const usd = (n: number) => (n >= 0.01 || n === 0 ? n.toFixed(2) : n.toPrecision(1));
/** A table of bills: what its rows are, a column a service, the total. */
const billTable = (rows: string, bills: [string, Bill][]) =>
  markdownTable(
    [rows, ...SERVICES.map(({ label }) => label), 'total'],
    bills.map(([name, bill]) => [
      name,
      ...SERVICES.map(({ key }) => usd(bill[key])),
      `**${usd(total(bill))}**`,
    ]),
  );
const sizeCell = (s: model.AtMemory) =>
  `$${usd(s.usdPerMillion)} · ${s.warmP99Ms.toFixed(0)} / ${s.coldStartMs.toFixed(0)} ms${(s.lanes ?? []).map((l) => ` · batch ${l.batchMs.toFixed(0)} ms`).join('')}`;
type MemoryFigures = ReturnType<typeof memoryOf>;
/** The size chosen, and each lane's messages a second drained there of those it is asked. */
const chosenCell = (m: MemoryFigures[string]) => {
  const at = m.sizes.find((s) => s.memoryMb === m.chosenMb)?.lanes ?? [];
  const lane = (l: model.Lane, i: number) =>
    ` · ${l.batchesAtOnce ? model.drainPerSecond(l, at[i]?.batchMs ?? 0).toFixed(0) : 'any'} of ${l.perSecond.toFixed(1)}/s${l.receiverMs ? ` (receivers ${l.receiverMs} ms)` : ''}`;
  const none = ` (none ${m.lanes ? 'drains every lane' : 'within the limits'}: the nearest)`;
  if (!m.chosenMb) return '–';
  return `${m.chosenMb} MB${(m.lanes ?? []).map(lane).join('')}${m.nearest ? none : ''}`;
};

/** The cost's tables in Markdown, as printed and as docs/performance.md shows them. */
type Rows = ReturnType<typeof rowsOf>;
const tables = (rows: Rows, memoryFigures: MemoryFigures, peers?: Record<string, Bill>) => [
  ...billTable(
    'per million, US$',
    rows.map((r) => [r.what, r.bill]),
  ),
  '',
  ...markdownTable(
    ['function', ...model.MEMORY_SIZES.map((mb) => `${mb} MB`), 'chosen', 'serverless.yml'],
    Object.entries(memoryFigures).map(([name, m]) => [
      name,
      ...m.sizes.map(sizeCell),
      chosenCell(m),
      `${m.deployedMb} MB`,
    ]),
  ),
  '',
  ...(peers ? billTable(`${PEERS_KIND}, per million, US$`, Object.entries(peers)) : []),
];

/** A row's dollars as a sentence: its total, then each service that costs anything. */
const spelled = (bill: Bill) =>
  `$${usd(total(bill))}: ${SERVICES.filter(({ key }) => bill[key] > 0)
    .map(({ key, label }) => `${label} $${usd(bill[key])}`)
    .join(', ')}`;

/**
 * What X-Ray's traces add to a million creates and a million ten-endpoint events: each invocation
 * a trace (a delivery's linked to its fan-out's), every one traced by the default rule's reservoir
 * (a function under one a second) or its rate past it.
 */
const tracingSentence = (create: number, toTen: number) => {
  const perTrace = month.traceUsd();
  const rate = ASSUMPTIONS.xraySampledShare.value;
  // the fan-out and each of 10 endpoints' two attempts
  const eventTraces = 1 + 10 * 2;
  const withTraces = (today: number, traces: number) =>
    `$${usd(today + traces * perTrace * 1e6)} (every one traced) to $${usd(today + traces * rate * perTrace * 1e6)} (${rate * 100}% traced)`;
  return `With X-Ray's traces (every function traced, each invocation a trace at $${(perTrace * 1e6).toFixed(2)} a million, recorded and read once; a function's first invocation each second traced, then ${rate * 100}% of the rest): a million creates cost ${withTraces(create, 1)} instead of $${usd(create)}; a million ten-endpoint events, ${eventTraces} invocations each, ${withTraces(toTen, eventTraces)} instead of $${usd(toTen)}. A stage whose functions each run under once a second has every invocation traced; the monthly bills below count each function's share.`;
};

const budgetFile = join(repoRoot, 'bench', 'cost-budget.json');
const PAGE = join(repoRoot, 'docs', 'performance.md');
/** How much more than its budget a row may cost before the bench fails. */
const TOLERANCE = 0.05;

/** docs/performance.md's "Cost" below its own words: the example, the chart, the tables, what is assumed. */
const pageSection = (rows: Rows, lines: string[]) => {
  const row = (name: string) => rows.find((r) => r.name === name);
  const create = row('createPlant');
  const toTen = row('plantAddedTo10Endpoints');
  // the published outcomes and the cold starts, each by service (lib/telemetry.ts)
  const metrics = CUSTOM_METRICS.length;
  return [
    ...(create && toTen
      ? [
          `A million \`POST /plants\` cost ${spelled(create.bill)}.`,
          `A million plants added, each event to 10 endpoints whose first attempt fails, cost ${spelled(toTen.bill)}.`,
          '',
          tracingSentence(total(create.bill), total(toTen.bill)),
          '',
        ]
      : []),
    '![A million requests of each route, by service](../bench/cost-routes.svg)',
    '',
    '![A million events, by service](../bench/cost-events.svg)',
    '',
    ...lines,
    '',
    `Fixed, whatever the traffic: the EMF custom metrics, at most ${metrics} (${CUSTOM_METRICS.join(', ')}, each by service; every other outcome is a field of its log line) at $${PRICES.customMetricMonth.usd.toFixed(2)} a month each: $${(metrics * PRICES.customMetricMonth.usd).toFixed(2)} a month, less for a metric sent only some hours. With storage, alarms and the queues' idle polling, in a month: [What a stage costs a month](#what-a-stage-costs-a-month). Not counted: the operator's secret read from SSM at most every 5 minutes a container (a KMS decrypt under aws/ssm: cents a month), the S3 requests of a stream batch given up (only then: Lambda's PutObject of it, $0.005 per 1,000, and \`keepFailedStreamRecords\`' GetObject, $0.0004 per 1,000), the free tiers (the monthly bills show them apart). No KMS per request: the queues are encrypted with SQS's own keys. ${STREAM_READS_FREE.what}`,
    '',
    '| price (us-east-1, on-demand) | US$ | source, read |',
    '|---|---:|---|',
    // a request's price as AWS states it, per million
    ...Object.values(PRICES).map(
      ({ per, usd, source, read }) =>
        `| ${usd < 0.001 ? `a million of: ${per}` : per} | ${Number((usd < 0.001 ? usd * 1e6 : usd).toPrecision(6))} | ${source}, ${read} |`,
    ),
    '',
    '| modelled, not measured | value | source |',
    '|---|---:|---|',
    ...Object.values(ASSUMPTIONS).map((a) => `| ${a.what} | ${a.value} ${a.unit} | ${a.source} |`),
  ];
};

/** Each shipped profile's monthly bill (bench/cost/profiles/), from results.json's cost rows. */
export const monthlyBills = (rows: month.CostRows): month.MonthlyBill[] =>
  month.loadProfiles().map((profile) => {
    const stage = month.stageOf(profile.operatorWebhook, profile.stage);
    return month.monthlyBill({ profile, rows, stage, customMetricCount: CUSTOM_METRICS.length });
  });

const rateText = ({ rate }: month.Profile) => {
  const [n, per] = 'perSecond' in rate ? [rate.perSecond, 'second'] : [rate.perMinute, 'minute'];
  return `${n.toLocaleString('en-US')} request${n === 1 ? '' : 's'} a ${per}`;
};
const quantity = (n: number) =>
  n >= 100 || Number.isInteger(n)
    ? Math.round(n).toLocaleString('en-US')
    : Number(n.toPrecision(3)).toString();
// a request's price as AWS states it, a million at a time
const unitPrice = (usd: number) =>
  `${usd < 0 ? '−' : ''}$${Math.abs(usd) < 0.001 ? `${Math.abs(usd * 1e6).toFixed(2)} a million` : Math.abs(usd).toFixed(2)}`;
/** A month's dollars: cents, thousands apart; less, as AWS's tier takes off, with a minus. */
const dollars = (n: number): string =>
  n < 0
    ? `−${dollars(-n)}`
    : n >= 0.01 || n === 0
      ? n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
      : n.toPrecision(1);

/** A profile's bill in Markdown, the last column its events' messages a full batch at a time. */
const monthlyTable = (bill: month.MonthlyBill) => {
  const { profile, usage, tracing, fixed, usageTotal, usageTotalInFullBatches, fixedTotal, total } =
    bill;
  const line = (l: month.MonthlyBill['fixed'][number], inFullBatches = l.monthly) => [
    l.resource,
    `${quantity(l.quantity)} ${l.unit} × ${unitPrice(l.unitPrice)}`,
    dollars(l.monthly),
    dollars(inFullBatches),
    l.free > 0 ? `(${dollars(l.free)})` : '',
  ];
  const totals = (name: string, one: number, batched: number) =>
    [name, '', dollars(one), dollars(batched), ''].map((c) => c && `**${c}**`);
  return markdownTable(
    [
      `\`${profile.name}\`: ${rateText(profile)}`,
      'quantity × unit price',
      'US$ a month, one at a time',
      'in full batches',
      "the account's free tier, not subtracted",
    ],
    [
      ...[...usage, tracing].map((l) => line(l, l.monthlyInFullBatches)),
      totals('usage', usageTotal, usageTotalInFullBatches),
      ['*fixed, and the data kept*', '', '', '', ''],
      ...fixed.map((l) => line(l)),
      totals('fixed', fixedTotal, fixedTotal),
      totals('total', total, fixedTotal + usageTotalInFullBatches),
    ],
  );
};

/** A profile in one sentence: what it assumes, and its month (its events one at a time to a full batch at a time). */
const monthlySentence = (bill: month.MonthlyBill) => {
  const { profile, usageTotal, usageTotalInFullBatches, fixedTotal, total } = bill;
  return `\`${profile.name}\` (bench/cost/profiles/${profile.name}.json): ${profile.description} **$${dollars(total)} a month** ($${dollars(fixedTotal + usageTotalInFullBatches)} with its events' messages a full batch at a time): $${dollars(fixedTotal)} fixed (${((fixedTotal / total) * 100).toFixed(0)}%), $${dollars(usageTotal)} for its requests and events.`;
};

/** The monthly bills' chart: each profile a bar, its fixed costs then its usage by service. */
const monthlyChart = (bills: month.MonthlyBill[]) =>
  costChart(
    'What a stage costs a month, by traffic',
    [
      { key: 'customMetrics', label: 'Fixed: custom metrics', color: '#000000' },
      { key: 'otherFixed', label: 'Fixed: the rest', color: '#999999' },
      ...SERVICES,
      { key: 'tracing', label: 'X-Ray traces', color: '#7B3294' },
    ],
    bills.map((bill) => {
      const metrics = bill.fixed.find((l) => l.key === 'customMetrics')?.monthly ?? 0;
      const fixed = { customMetrics: metrics, otherFixed: bill.fixedTotal - metrics };
      const usd = { ...fixed, ...month.usageByService(bill), tracing: bill.tracing.monthly };
      return { name: `${bill.profile.name}: ${rateText(bill.profile)}`, usd };
    }),
    'US dollars a month: the fixed costs, then the requests by service (npm run bench -- --cost)',
  );

/** The budget: dollars a million by row, and a month by profile (`monthly`). */
const readBudget = (): Record<string, number> & { monthly?: Record<string, number> } =>
  existsSync(budgetFile) ? JSON.parse(readFileSync(budgetFile, 'utf8')) : {};
/** Each cost over its budget (bench/cost-budget.json; a month's: its `monthly`), a line naming it. */
type Pairs = [string, number][];
const overBudget = (costs: Pairs, budget: Record<string, number>, monthly: boolean) => {
  const [what, file, flags, digits] = monthly
    ? ['monthly budget', "bench/cost-budget.json's monthly", '--cost --write-budget', 2]
    : ['budget', 'bench/cost-budget.json', '--write-budget', 3];
  return costs.flatMap(([name, cost]) => {
    const allowed = budget[name];
    if (allowed === undefined)
      return `${name}: no ${what} in bench/cost-budget.json; run npm run bench -- ${flags} and commit it`;
    const over = (((cost - allowed) / allowed) * 100).toFixed(1);
    return cost > allowed * (1 + TOLERANCE)
      ? `${name} costs $${cost.toFixed(digits)} a ${monthly ? 'month' : 'million'}, ${over}% over its budget ($${allowed.toFixed(digits)}, ${file}): lower it, or raise the budget in the same commit (npm run bench -- ${flags})`
      : [];
  });
};
/** Each bill over its monthly budget, a line naming it. */
export const monthlyOverBudget = (bills: month.MonthlyBill[], budget = readBudget().monthly) =>
  overBudget(monthlyTotals(bills), budget ?? {}, true);
const monthlyTotals = (bills: month.MonthlyBill[]): Pairs =>
  bills.map(({ profile, total }) => [profile.name, total]);

/** docs/performance.md between the markers of `section`: `lines` in place of what was there. */
const writeBetween = (section: string, lines: string[]) => {
  const [begin, end] = [`<!-- ${section}: written by npm run bench -->`, `<!-- /${section} -->`];
  const [before, rest] = readFileSync(PAGE, 'utf8').split(begin);
  const [, after] = (rest ?? '').split(end);
  if (before !== undefined && after !== undefined)
    writeFileSync(PAGE, `${before}${begin}\n${lines.join('\n')}\n${end}${after}`);
};
const writeBench = (file: string, text: string) =>
  writeFileSync(join(repoRoot, 'bench', file), text);

/**
 * Prints the cost, checked against the budget; a complete run draws the charts and writes the docs'
 * tables (and the budget, with `writeBudget`). Returns results.json's figures and each row over.
 */
export const reportCost = (figures: Figures, complete: boolean, writeBudget: boolean) => {
  const deployed = deployedSettings();
  const rows = rowsOf(figures, deployed);
  const memoryFigures = memoryOf(figures, deployed);
  const peers = peersOf(figures, deployed);
  const lines = tables(rows, memoryFigures, peers);
  out(
    '',
    `Cost of a million, at serverless.yml's memory (arm64, us-east-1, on-demand); each size: $ per million · modelled warm p99 / cold start (a route's limits ${model.LIMITS.warmP99Ms} / ${model.LIMITS.coldStartMs} ms) · a consumer's batch and messages a second drained per lane (the cheapest draining each lane's share of the busiest profile), calibrated against ${PEERS_KIND}'s floor:`,
    ...lines,
  );
  if (!figures[PEERS_KIND])
    out(
      `${PEERS_KIND} not measured: no memory chosen (each choice reads its figures against its floor).`,
    );
  else
    for (const [name, { chosenMb, deployedMb }] of Object.entries(memoryFigures))
      if (chosenMb !== deployedMb)
        out(
          chosenMb
            ? `serverless.yml gives ${name} ${deployedMb} MB; the figures choose ${chosenMb} MB.`
            : `${name}: no size holds its peak RSS: look at bench/results.json's peakRssMb.`,
        );

  const withTotal = (bill: Bill) => ({ ...bill, total: total(bill) });
  const costRows = Object.fromEntries(
    rows.map(({ name, what, bill, fullBatches }) => [
      name,
      { what, ...withTotal(bill), ...(fullBatches ? { fullBatches: withTotal(fullBatches) } : {}) },
    ]),
  );
  // the shipped profiles price every route and event: a partial run (--only) has no bill
  const bills = complete ? monthlyBills(costRows) : [];
  for (const bill of bills) out('', monthlySentence(bill), ...monthlyTable(bill));

  const totals: Pairs = rows.map(({ name, bill }) => [name, total(bill)]);
  if (complete) {
    // routes and events apart: an event to 10 endpoints costs 30 times a route
    const draw = (file: string, title: string, events: boolean, per: string) => {
      const drawn = rows.filter(({ name }) => name in ROUTES !== events);
      const bars = drawn.map((r) => ({ name: r.what.replace(/ \(.*\)$/, ''), usd: r.bill }));
      const subtitle = `US dollars per million ${per}, at serverless.yml's settings (npm run bench)`;
      writeBench(file, costChart(title, SERVICES, bars, subtitle));
    };
    draw('cost-routes.svg', 'A million requests of each route, by service', false, 'requests');
    draw('cost-events.svg', 'A million events, by service', true, 'events');
    writeBetween('cost', pageSection(rows, lines));
    writeBench('cost-monthly.svg', monthlyChart(bills));
    writeBetween('monthly', [
      ...bills.flatMap((bill) => [monthlySentence(bill), '']),
      '![What a stage costs a month, by traffic](../bench/cost-monthly.svg)',
      ...bills.flatMap((bill) => ['', ...monthlyTable(bill)]),
    ]);
    const rounded = (pairs: Pairs, digits: number) =>
      Object.fromEntries(pairs.map(([name, usd]) => [name, Number(usd.toFixed(digits))]));
    const budget = { ...rounded(totals, 3), monthly: rounded(monthlyTotals(bills), 2) };
    if (writeBudget) writeBench('cost-budget.json', `${JSON.stringify(budget, null, 2)}\n`);
  }
  return {
    cost: {
      rows: costRows,
      memory: memoryFigures,
      ...(peers && {
        peers: Object.fromEntries(Object.entries(peers).map(([n, b]) => [n, withTotal(b)])),
      }),
    },
    overBudget: [...overBudget(totals, readBudget(), false), ...monthlyOverBudget(bills)],
  };
};
