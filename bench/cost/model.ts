// What a million of each route and event cost on AWS (us-east-1, arm64, on-demand, no free tier),
// split by service, from what the bench measured of one invocation (bench/stats.ts's Usage) and
// the prices and assumptions of bench/cost/prices.ts. A function's time: its warm CPU time scaled
// by the CPU share of its memory, each AWS call at its stated latency, a receiver's answer; a cold
// start's share billed too (its init with burst CPU, its first invocation at the memory's share).
import { type Metered, nothingMetered } from '../meter.ts';
import type { Usage } from '../stats.ts';
import { ASSUMPTIONS as A, PRICES as P } from './prices.ts';

/** The services a bill is split by, in the chart's order, each with its colour (Okabe–Ito). */
export const SERVICES = [
  { key: 'apiGateway', label: 'API Gateway', color: '#E69F00' },
  { key: 'lambdaRequests', label: 'Lambda requests', color: '#56B4E9' },
  { key: 'lambdaDuration', label: 'Lambda duration', color: '#0072B2' },
  { key: 'dynamodb', label: 'DynamoDB', color: '#009E73' },
  { key: 'sqs', label: 'SQS', color: '#F0E442' },
  { key: 'logs', label: 'CloudWatch Logs', color: '#D55E00' },
  { key: 'dataTransfer', label: 'Data transfer out', color: '#CC79A7' },
] as const;
export type Service = (typeof SERVICES)[number]['key'];
/** Dollars per million, by service. */
export type Bill = Record<Service, number>;

/** The memory sizes each function is modelled at: 1,769 MB is one full vCPU. */
export const MEMORY_SIZES = [128, 256, 512, 1024, 1769] as const;
/** What a route must keep at the memory chosen, its caller waiting: its modelled warm p99 and cold start, in ms. */
export const LIMITS = { warmP99Ms: 50, coldStartMs: 400 } as const;

/** How a function is invoked: by API Gateway, by a stream (whose reads are free) or by a queue. */
export type Trigger = 'http' | 'stream' | 'queue';

export const GB = 2 ** 30;
export const MILLION = 1e6;
export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const meteredOf = (usage: Usage) => usage.metered ?? nothingMetered();

/** The invocation's `usage` with what a failed attempt does beside the measured one. */
export const withMore = (usage: Usage, more: Partial<Metered>): Usage => {
  const add = (a: unknown, b: unknown): unknown => {
    if (typeof a === 'number') return a + ((b as number | undefined) ?? 0);
    const counts = { ...(a as Record<string, number>) };
    for (const [k, n] of Object.entries(b ?? {})) counts[k] = (counts[k] ?? 0) + n;
    return counts;
  };
  const m = Object.entries(meteredOf(usage)).map(([k, v]) => [k, add(v, more[k as keyof Metered])]);
  return { ...usage, metered: Object.fromEntries(m) as Metered };
};

const cpuShare = (memoryMb: number) => Math.min(1, memoryMb / A.fullVcpuMb.value);
/** The time waited on DynamoDB and SQS: each wait (calls made together are one) at its mean, or one at its p99. */
const awsWaitMs = (usage: Usage, at: 'mean' | 'p99') => {
  const { dynamoWaits: dynamo, sqsWaits: sqs } = meteredOf(usage);
  const mean = dynamo * A.dynamoCallMs.value + sqs * A.sqsCallMs.value;
  if (at === 'mean') return mean;
  // two calls at their tail at once is a 1 in 10,000 invocation: one call's tail makes the p99
  const tails = [
    dynamo > 0 ? A.dynamoCallP99Ms.value - A.dynamoCallMs.value : 0,
    sqs > 0 ? A.sqsCallP99Ms.value - A.sqsCallMs.value : 0,
  ];
  return mean + Math.max(...tails);
};
/** A warm invocation's modelled p99, in ms: the receiver's answer is the receiver's, not ours. */
export const warmP99Ms = (usage: Usage, memoryMb: number) =>
  usage.cpuP99Ms / cpuShare(memoryMb) + awsWaitMs(usage, 'p99');
/**
 * A cold start's modelled first answer, in ms: the init (the bundle's import) with burst CPU, the
 * first invocation at the memory's share, its calls, and a route's fetch of the key set (a
 * receiver's answer is the receiver's, not ours: billed apart).
 */
export const coldStartMs = (usage: Usage, memoryMb: number, trigger: Trigger) => {
  const importMs = usage.importMs ?? 0;
  const first = (usage.coldStartMs ?? usage.cpuMeanMs) - importMs;
  const initShare = A.initCpuBurst.value === 1 ? 1 : cpuShare(memoryMb);
  const keySetMs = trigger === 'http' ? A.keySetFetchMs.value : 0;
  return importMs / initShare + first / cpuShare(memoryMb) + awsWaitMs(usage, 'mean') + keySetMs;
};
/** Billed time, mean: each invocation is rounded up, half a step on average. */
const billedMs = (ms: number) => ms + A.billingGranularityMs.value / 2;

/** What serverless.yml sets for a function: its memory, and the bytes Lambda's own lines write per invocation (none when loggingConfig drops its INFO lines). */
export type Deployed = { memoryMb: number; platformLogBytes: number };

/**
 * Messages handled `size` at a time (a queue's or stream's batch): each invocation's request, poll
 * and Lambda lines shared by the batch, its waits overlapped (`batchMs`), and the batch's sends made
 * ten entries to a SendMessageBatch, `sendEntries` entries a message.
 */
export type Batch = { size: number; sendEntries: number };

/**
 * A million invocations of a function using `usage`, deployed so, in dollars by service; each
 * receiver answering in `receiverMs` (a timed-out one: the attempt's timeout). With `batch`, a
 * million messages handled so many at a time, per message.
 */
export const billOf = (
  usage: Usage,
  trigger: Trigger,
  { memoryMb, platformLogBytes }: Deployed,
  receiverMs: number = A.receiverMs.value,
  batch: Batch = { size: 1, sendEntries: 1 },
): Bill => {
  const m = meteredOf(usage);
  const n = batch.size;
  const cold = A.coldStartShare.value;
  // a cold invocation bills its whole first answer: its init too, since August 2025
  const unbilledInit = A.initBilled.value === 1 ? 0 : (usage.importMs ?? 0);
  const firstMs = coldStartMs(usage, memoryMb, trigger) - unbilledInit;
  const warmMs = batchMs(usage, memoryMb, n, receiverMs);
  // a cold batch: the first message's cold answer, the others' CPU beside it
  const coldMs =
    warmMs - batchMs(usage, memoryMb, 1, receiverMs) + firstMs + m.receiverPosts * receiverMs;
  const ms = ((1 - cold) * billedMs(warmMs) + cold * billedMs(coldMs)) / n;
  // a queue's poller receives each batch (each 64 KB of it a request) and deletes it; a message
  // is about the size of the body it delivers
  const batchChunks = Math.max(1, Math.ceil((n * m.receiverBytes) / A.sqsChunkBytes.value));
  const polled = trigger === 'queue' ? (batchChunks + 1) / n : 0;
  // one at a time, each send as measured; in a batch, the batch's entries ten to a request
  const sends = n === 1 ? m.sqsRequests : Math.ceil((n * batch.sendEntries) / 10) / n;
  // an HTTP API request is metered in 512 KB steps
  const steps = Math.max(1, Math.ceil(usage.responseBytes / A.apiGatewayMeterBytes.value));
  const each: Bill = {
    apiGateway: trigger === 'http' ? steps * P.apiGatewayRequest.usd : 0,
    lambdaRequests: P.lambdaRequest.usd / n,
    lambdaDuration: (ms / 1000) * (memoryMb / 1024) * P.lambdaGbSecond.usd,
    dynamodb:
      m.readUnits * P.dynamoReadRequestUnit.usd + m.writeUnits * P.dynamoWriteRequestUnit.usd,
    sqs: (sends + polled) * P.sqsRequest.usd,
    logs: ((usage.logBytes + platformLogBytes / n) / GB) * P.logsIngestedGb.usd,
    dataTransfer: ((usage.responseBytes + m.receiverBytes) / GB) * P.dataTransferOutGb.usd,
  };
  return scaled(each, MILLION);
};

export const scaled = (bill: Bill, by: number) =>
  Object.fromEntries(SERVICES.map(({ key }) => [key, bill[key] * by])) as Bill;
export const added = (...bills: Bill[]) =>
  Object.fromEntries(SERVICES.map(({ key }) => [key, sum(bills.map((b) => b[key]))])) as Bill;
export const total = (bill: Bill) => sum(SERVICES.map(({ key }) => bill[key]));

/**
 * A warm batch's modelled time, in ms: its messages are handled at once
 * (lib/webhooks/batchResponse.ts), so their waits overlap and their CPU, at the memory's share of a
 * vCPU, adds up (an upper bound: the CPU counted apart from the waits it overlaps); the receiver's
 * answer is billed. A batch of one is a warm invocation's mean duration.
 */
export const batchMs = (usage: Usage, memoryMb: number, batchSize: number, receiverMs?: number) =>
  (batchSize * usage.cpuMeanMs) / cpuShare(memoryMb) +
  awsWaitMs(usage, 'mean') +
  meteredOf(usage).receiverPosts * (receiverMs ?? A.receiverMs.value);

/** At each memory size: cost a million, modelled p99 and cold start, a consumer's batch and drain per lane. */
export const atEachMemory = (usage: Usage, trigger: Trigger, deployed: Deployed, lanes?: Lane[]) =>
  MEMORY_SIZES.map((memoryMb: number) => ({
    memoryMb,
    usdPerMillion: total(billOf(usage, trigger, { ...deployed, memoryMb })),
    warmP99Ms: warmP99Ms(usage, memoryMb),
    coldStartMs: coldStartMs(usage, memoryMb, trigger),
    ...(lanes && {
      lanes: lanes.map((l) => ({ batchMs: batchMs(usage, memoryMb, l.batchSize, l.receiverMs) })),
    }),
  }));
export type AtMemory = ReturnType<typeof atEachMemory>[number];
const byCost = (a: AtMemory, b: AtMemory) =>
  a.usdPerMillion - b.usdPerMillion || a.memoryMb - b.memoryMb;
const withinLimits = (s: AtMemory) =>
  s.warmP99Ms < LIMITS.warmP99Ms && s.coldStartMs < LIMITS.coldStartMs;
/** What a p99 must gain for the memory that buys it, where no size is within the limits. */
export const WORTH_MS = 10;
/**
 * The cheapest size within LIMITS that holds the function's peak RSS. Where none is (its AWS calls'
 * own tail passes the p99 limit), the cheapest whose p99 is within WORTH_MS of the largest size's
 * and whose cold start is within the limit (or near the largest's): more memory buys too little.
 */
export const cheapest = (sizes: AtMemory[], peakRssMb: number): AtMemory | undefined => {
  const holding = sizes.filter((s) => s.memoryMb > peakRssMb);
  const full = holding[holding.length - 1];
  const within = holding.filter(withinLimits);
  const nearFull = holding.filter(
    (s) =>
      full !== undefined &&
      s.warmP99Ms <= full.warmP99Ms + WORTH_MS &&
      s.coldStartMs < Math.max(LIMITS.coldStartMs, full.coldStartMs + WORTH_MS),
  );
  return [...(within.length > 0 ? within : nearFull)].sort(byCost)[0];
};

/** A table's stream has a shard per partition: one, the fewest batches at once a stream gives. */
export const STREAM_SHARDS = 1;

/**
 * A consumer's lane as deployed (`batchesAtOnce`: shards × parallelizationFactor, maximumConcurrency;
 * none: Lambda adds batches as the queue grows); its messages a second, what its receivers take.
 */
export type Lane = Record<'batchSize' | 'timeoutS' | 'perSecond' | 'receiverMs', number> & {
  batchesAtOnce: number | undefined;
};
/** A lane's messages a second, its batches taking `ms`: so many at once of so many; no cap, no limit. */
export const drainPerSecond = ({ batchSize, batchesAtOnce }: Lane, ms: number) =>
  batchesAtOnce === undefined ? Number.POSITIVE_INFINITY : (batchesAtOnce * batchSize * 1000) / ms;
/** Whether each lane drains its demand at a size, busy at most A.drainUtilization, its batch within the timeout. */
const drains = (at: AtMemory, lanes: Lane[]) =>
  lanes.every((l, i) => {
    const ms = at.lanes?.[i]?.batchMs ?? Number.POSITIVE_INFINITY;
    const drained = drainPerSecond(l, ms) * A.drainUtilization.value;
    return ms <= l.timeoutS * 1000 && drained >= l.perSecond;
  });

/**
 * A consumer's size, Power Tuning's cost strategy: the cheapest holding the RSS whose every lane
 * drains what it is asked; where none does, the largest (its batches the shortest).
 */
export const cheapestDrained = (sizes: AtMemory[], peakRssMb: number, lanes: Lane[]) => {
  const holding = sizes.filter((s) => s.memoryMb > peakRssMb && s.lanes);
  const within = holding.filter((s) => drains(s, lanes));
  return within.length > 0 ? [...within].sort(byCost)[0] : holding.at(-1);
};

/**
 * The calibration: a run's milliseconds are read as ratios to the bench's reference measured in the
 * same run (the create's floor, bench/baseline/createPlant.ts, the peers' reference too), times the
 * reference's figures here; a machine twice as fast halves both, so any machine of this kind
 * chooses alike. The point is the committed run of 2026-11-26T15:53Z (bench/results.json at commit
 * 98f6347), on whose figures the limits were set: no published Lambda figure is of a workload the
 * bench measures.
 */
export const CALIBRATION = {
  cpuMeanMs: 1.285,
  cpuP99Ms: 4.333,
  coldStartMs: 82.707,
  importMs: 44.365,
};
/** `usage` as the calibration run's machine would have measured it: each figure by the reference's own. */
export const calibrated = (usage: Usage, reference: Usage): Usage => {
  const scale = (key: keyof typeof CALIBRATION) => {
    const [value, at] = [usage[key], reference[key]];
    if (value === undefined) return {};
    if (!at) throw new Error(`the reference has no ${key}: the calibration needs it`);
    return { [key]: value * (CALIBRATION[key] / at) };
  };
  const keys = Object.keys(CALIBRATION) as (keyof typeof CALIBRATION)[];
  return Object.assign({ ...usage }, ...keys.map(scale));
};

/**
 * The memory by what waits on the function: a route's caller waits on its answer (LIMITS,
 * `cheapest`); nobody waits on a consumer, whose lanes need only be drained (`cheapestDrained`).
 * Each size, the one chosen, and whether none met the rule (the nearest).
 */
export const chooseMemory = (
  usage: Usage,
  peakRssMb: number,
  trigger: Trigger,
  deployed: Deployed,
  lanes?: Lane[],
) => {
  if (trigger === 'http') {
    const sizes = atEachMemory(usage, trigger, deployed);
    const chosen = cheapest(sizes, peakRssMb);
    return { sizes, chosen, nearest: chosen !== undefined && !withinLimits(chosen) };
  }
  if (!lanes)
    throw new Error(`a ${trigger} consumer's memory needs its lanes (batch, concurrency)`);
  const sizes = atEachMemory(usage, trigger, deployed, lanes);
  const chosen = cheapestDrained(sizes, peakRssMb, lanes);
  return { sizes, chosen, nearest: chosen !== undefined && !drains(chosen, lanes) };
};
