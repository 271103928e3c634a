// The cost model's arithmetic (bench/cost/model.ts) on hand-made usages, no bench run: each
// expected figure is computed from PRICES and ASSUMPTIONS, so a price change keeps these green and a
// change of formula does not.
import { describe, expect, it } from 'vitest';
import {
  type AtMemory,
  atEachMemory,
  type Bill,
  billOf,
  cheapest,
  coldStartMs,
  LIMITS,
  MEMORY_SIZES,
  SERVICES,
  total,
  WORTH_MS,
  warmP99Ms,
  withMore,
} from '../../bench/cost/model.ts';
import { ASSUMPTIONS as A, PRICES as P } from '../../bench/cost/prices.ts';
import { type Metered, nothingMetered } from '../../bench/meter.ts';
import type { Usage } from '../../bench/stats.ts';

const GB = 2 ** 30;
const MILLION = 1e6;
const FULL_VCPU = A.fullVcpuMb.value;

const count = (calls: Record<string, number> = {}) =>
  Object.values(calls).reduce((a, b) => a + b, 0);
/** What a function asked of AWS: each call a wait of its own unless the waits are given. */
const metered = (counts: Partial<Metered> = {}): Metered => ({
  ...nothingMetered(),
  dynamoWaits: count(counts.dynamoCalls),
  sqsWaits: count(counts.sqsCalls),
  ...counts,
});

/** A create-plant-like route: a get and a put (a tagged plant: table and two indexes), one send. */
const route: Usage = {
  cpuMeanMs: 12,
  cpuP99Ms: 30,
  coldStartMs: 250,
  importMs: 180,
  logBytes: 1500,
  responseBytes: 400,
  metered: metered({
    dynamoCalls: { GetItem: 1, PutItem: 1 },
    readUnits: 1,
    writeUnits: 9,
    indexWriteUnits: 6,
    sqsCalls: { SendMessageBatch: 1 },
    sqsRequests: 2,
  }),
};
/** A route fast enough for the limits at the larger sizes: a get and a put, no send. */
const fastRoute: Usage = {
  cpuMeanMs: 5,
  cpuP99Ms: 10,
  coldStartMs: 200,
  importMs: 150,
  logBytes: 1500,
  responseBytes: 400,
  metered: metered({ dynamoCalls: { GetItem: 1, PutItem: 1 }, readUnits: 1, writeUnits: 3 }),
};
/** Only CPU: no AWS call, no cold start measured. */
const cpuOnly: Usage = { cpuMeanMs: 100, cpuP99Ms: 150, logBytes: 0, responseBytes: 0 };
/** Only waiting: no CPU, two DynamoDB calls. */
const waitOnly: Usage = {
  cpuMeanMs: 0,
  cpuP99Ms: 0,
  logBytes: 0,
  responseBytes: 0,
  metered: metered({ dynamoCalls: { GetItem: 1, PutItem: 1 } }),
};
const deployed = { memoryMb: 1024, platformLogBytes: A.platformLogBytes.value };

/** Each invocation rounded up to the billing step: half a step more, on average. */
const billed = (ms: number) => ms + A.billingGranularityMs.value / 2;
const share = (memoryMb: number) => Math.min(1, memoryMb / FULL_VCPU);
const gbSecondsUsd = (ms: number, memoryMb: number) =>
  (ms / 1000) * (memoryMb / 1024) * P.lambdaGbSecond.usd * MILLION;
/** `bill` minus `other`, service by service. */
const minus = (bill: Bill, other: Bill) =>
  Object.fromEntries(SERVICES.map(({ key }) => [key, bill[key] - other[key]]));
const zeroes = Object.fromEntries(SERVICES.map(({ key }) => [key, 0]));

describe('billOf', () => {
  it('bills a million of an http route at 1024 MB, service by service', () => {
    const bill = billOf(route, 'http', deployed);

    expect(bill.apiGateway).toBeCloseTo(P.apiGatewayRequest.usd * MILLION, 12);
    expect(bill.apiGateway).toBeGreaterThan(0);
    expect(bill.lambdaRequests).toBeCloseTo(0.2, 12);
    expect(bill.lambdaRequests).toBeCloseTo(P.lambdaRequest.usd * MILLION, 12);
    expect(bill.dynamodb).toBeCloseTo(
      (1 * P.dynamoReadRequestUnit.usd + 9 * P.dynamoWriteRequestUnit.usd) * MILLION,
      12,
    );
    // what the route sends, no poller: an http route is not fed by a queue
    expect(bill.sqs).toBeCloseTo(2 * P.sqsRequest.usd * MILLION, 12);
    expect(bill.logs).toBeCloseTo(
      ((1500 + A.platformLogBytes.value) / GB) * P.logsIngestedGb.usd * MILLION,
      12,
    );
    expect(bill.dataTransfer).toBeCloseTo((400 / GB) * P.dataTransferOutGb.usd * MILLION, 12);

    // warm: CPU at the memory's share, each call at its mean; cold: the import with burst CPU,
    // the rest of the first answer at the memory's share, the calls, the key set's fetch
    const waitMs = 2 * A.dynamoCallMs.value + 1 * A.sqsCallMs.value;
    const warmMs = 12 / share(1024) + waitMs;
    const initShare = A.initCpuBurst.value === 1 ? 1 : share(1024);
    const coldMs = 180 / initShare + (250 - 180) / share(1024) + waitMs + A.keySetFetchMs.value;
    expect(coldStartMs(route, 1024, 'http')).toBeCloseTo(coldMs, 9);
    const cold = A.coldStartShare.value;
    const ms = (1 - cold) * billed(warmMs) + cold * billed(coldMs);
    expect(bill.lambdaDuration).toBeCloseTo(gbSecondsUsd(ms, 1024), 9);
    expect(total(bill)).toBeCloseTo(
      SERVICES.reduce((sum, { key }) => sum + bill[key], 0),
      12,
    );
  });

  it("bills a receiver's answer time while the function waits for it", () => {
    const posting = withMore(waitOnly, { receiverPosts: 1, receiverBytes: 2000 });
    const bill = billOf(posting, 'stream', deployed);

    const ms = 2 * A.dynamoCallMs.value + A.receiverMs.value;
    expect(bill.lambdaDuration).toBeCloseTo(gbSecondsUsd(billed(ms), 1024), 9);
    expect(bill.dataTransfer).toBeCloseTo((2000 / GB) * P.dataTransferOutGb.usd * MILLION, 12);
  });

  it('doubles the duration cost of a CPU-only function with its memory above a full vCPU', () => {
    const at = (memoryMb: number) =>
      billOf(cpuOnly, 'stream', { ...deployed, memoryMb }).lambdaDuration;

    expect(at(2 * FULL_VCPU)).toBeCloseTo(2 * at(FULL_VCPU), 9);
    expect(at(4096)).toBeCloseTo(2 * at(2048), 9);
    expect(at(2048)).toBeCloseTo(gbSecondsUsd(billed(100), 2048), 9);
  });

  it("keeps a CPU-only function's GB-seconds below a full vCPU, scales the waiting with memory", () => {
    const cpu = (memoryMb: number) =>
      billOf(cpuOnly, 'stream', { ...deployed, memoryMb }).lambdaDuration;
    const waiting = (memoryMb: number) =>
      billOf(waitOnly, 'stream', { ...deployed, memoryMb }).lambdaDuration;

    // the CPU time shrinks as the memory grows: only the 1 ms rounding differs
    for (const [small, large] of [
      [128, 256],
      [256, 512],
      [512, 1024],
      [1024, FULL_VCPU],
    ] as const) {
      expect(Math.abs(cpu(large) / cpu(small) - 1)).toBeLessThan(0.01);
      expect(waiting(large) / waiting(small)).toBeCloseTo(large / small, 9);
    }
    expect(cpu(512)).toBeCloseTo(gbSecondsUsd(billed((100 * FULL_VCPU) / 512), 512), 9);
    expect(waiting(512)).toBeCloseTo(gbSecondsUsd(billed(2 * A.dynamoCallMs.value), 512), 9);
  });

  it("adds a queue poller's receive and delete to a queue-fed function's SQS, none otherwise", () => {
    const http = billOf(route, 'http', deployed);
    const stream = billOf(route, 'stream', deployed);
    const queue = billOf(route, 'queue', deployed);

    expect(queue.sqs - stream.sqs).toBeCloseTo(2 * P.sqsRequest.usd * MILLION, 12);
    expect(stream.sqs).toBeCloseTo(http.sqs, 12);
    expect(stream.sqs).toBeCloseTo(2 * P.sqsRequest.usd * MILLION, 12);
    // a function not behind API Gateway pays none of it, nor the key set's fetch at a cold start
    expect(queue.apiGateway).toBe(0);
    expect(stream.apiGateway).toBe(0);
    expect(http.lambdaDuration).toBeGreaterThan(stream.lambdaDuration);
    expect(queue.lambdaDuration).toBeCloseTo(stream.lambdaDuration, 12);
  });

  it("lowers only the logs when Lambda's own lines are not logged (loggingConfig WARN)", () => {
    const info = billOf(route, 'http', deployed);
    const warn = billOf(route, 'http', { ...deployed, platformLogBytes: 0 });

    expect(warn.logs).toBeCloseTo((1500 / GB) * P.logsIngestedGb.usd * MILLION, 12);
    expect(warn.logs).toBeLessThan(info.logs);
    expect({ ...minus(info, warn), logs: 0 }).toEqual(zeroes);
  });
});

describe('warmP99Ms', () => {
  it('scales the CPU p99 by the memory share below a full vCPU, not above', () => {
    expect(warmP99Ms(cpuOnly, 512)).toBeCloseTo((150 * FULL_VCPU) / 512, 9);
    expect(warmP99Ms(cpuOnly, 1024)).toBeCloseTo((150 * FULL_VCPU) / 1024, 9);
    expect(warmP99Ms(cpuOnly, FULL_VCPU)).toBeCloseTo(150, 9);
    expect(warmP99Ms(cpuOnly, 4096)).toBeCloseTo(150, 9);
  });

  it("adds every call at its mean and one call's tail, the longest", () => {
    const dynamoTail = A.dynamoCallP99Ms.value - A.dynamoCallMs.value;
    const sqsTail = A.sqsCallP99Ms.value - A.sqsCallMs.value;
    const means = 2 * A.dynamoCallMs.value + A.sqsCallMs.value;

    expect(warmP99Ms(route, 512)).toBeCloseTo(
      (30 * FULL_VCPU) / 512 + means + Math.max(dynamoTail, sqsTail),
      9,
    );
    // DynamoDB only: two calls, one tail
    expect(warmP99Ms(waitOnly, 1024)).toBeCloseTo(2 * A.dynamoCallMs.value + dynamoTail, 9);
    // SQS only
    const sending = { ...cpuOnly, metered: metered({ sqsCalls: { SendMessage: 3 } }) };
    expect(warmP99Ms(sending, FULL_VCPU)).toBeCloseTo(150 + 3 * A.sqsCallMs.value + sqsTail, 9);
  });

  it('counts calls made together (Promise.all) as one wait', () => {
    const together = {
      ...waitOnly,
      metered: metered({ dynamoCalls: { PutItem: 2 }, dynamoWaits: 1 }),
    };
    const dynamoTail = A.dynamoCallP99Ms.value - A.dynamoCallMs.value;

    expect(warmP99Ms(together, FULL_VCPU)).toBeCloseTo(A.dynamoCallMs.value + dynamoTail, 9);
    expect(warmP99Ms(together, FULL_VCPU)).toBeLessThan(warmP99Ms(waitOnly, FULL_VCPU));
  });

  it("leaves out the receiver's answer: its time is the receiver's", () => {
    const posting = withMore(cpuOnly, { receiverPosts: 2, receiverBytes: 4000 });

    expect(warmP99Ms(posting, 1024)).toBeCloseTo(warmP99Ms(cpuOnly, 1024), 12);
  });
});

describe('withMore', () => {
  it("adds a failed attempt's counts to the measured ones", () => {
    const more = withMore(route, {
      dynamoCalls: { PutItem: 1, UpdateItem: 2 },
      dynamoWaits: 2,
      writeUnits: 3,
      sqsRequests: 1,
      receiverPosts: 1,
      receiverBytes: 100,
    });

    expect(more.metered).toEqual({
      dynamoCalls: { GetItem: 1, PutItem: 2, UpdateItem: 2 },
      dynamoWaits: 4,
      sqsWaits: 1,
      readUnits: 1,
      writeUnits: 12,
      indexWriteUnits: 6,
      sqsCalls: { SendMessageBatch: 1 },
      sqsRequests: 3,
      receiverPosts: 1,
      receiverBytes: 100,
    });
    expect({ ...more, metered: route.metered }).toEqual(route);
    expect(withMore(cpuOnly, {}).metered).toEqual(metered());
  });
});

describe('cheapest', () => {
  const size = (
    memoryMb: number,
    usdPerMillion: number,
    { warm = 10, cold = 100 }: { warm?: number; cold?: number } = {},
  ): AtMemory => ({ memoryMb, usdPerMillion, warmP99Ms: warm, coldStartMs: cold });

  it('picks the cheapest size within the limits that holds the peak RSS', () => {
    const sizes = [
      size(128, 1, { warm: LIMITS.warmP99Ms + 1 }),
      size(256, 2.5),
      size(512, 2, { cold: LIMITS.coldStartMs + 1 }),
      size(1024, 2.2),
      size(1769, 3),
    ];

    expect(cheapest(sizes, 100)?.memoryMb).toBe(1024);
    // 256 MB is cheapest once the others are out: but not for a function that needs more
    expect(cheapest(sizes.slice(0, 3), 100)?.memoryMb).toBe(256);
    expect(cheapest(sizes.slice(0, 3), 300)?.memoryMb).not.toBe(256);
    // within the limits but too small for the peak RSS
    expect(cheapest([size(128, 1), size(256, 2), size(512, 3)], 200)?.memoryMb).toBe(256);
  });

  it('keeps the limits strict', () => {
    const atTheLimits = size(128, 1, { warm: LIMITS.warmP99Ms, cold: LIMITS.coldStartMs });

    expect(cheapest([atTheLimits, size(256, 2), size(512, 3)], 50)?.memoryMb).toBe(256);
  });

  it('takes the smaller of two sizes that cost the same', () => {
    expect(cheapest([size(256, 2), size(512, 2), size(1024, 3)], 100)?.memoryMb).toBe(256);
    expect(cheapest([size(1024, 2), size(512, 2), size(256, 3)], 100)?.memoryMb).toBe(512);
  });

  it('falls back, when none is within the limits, to the cheapest near a full vCPU', () => {
    // every p99 over the limit (the calls' own tail): within WORTH_MS of the full vCPU's is enough
    const slow = (cold = 100) => [
      size(128, 1, { warm: 200 }),
      size(256, 2, { warm: 100 }),
      size(512, 3, { warm: 65, cold }),
      size(1024, 4, { warm: 62 }),
      size(1769, 5, { warm: 60 }),
    ];
    expect(cheapest(slow(), 100)?.memoryMb).toBe(512);
    // a cold start over the limit rules a size out, when the full vCPU's is within it
    expect(cheapest(slow(LIMITS.coldStartMs + 10), 100)?.memoryMb).toBe(1024);
    // the sizes too small for the peak RSS are out, the fallback's included
    expect(cheapest(slow(), 600)?.memoryMb).toBe(1024);
    // and nothing is chosen when no size holds the peak RSS
    expect(cheapest(slow(), 5000)).toBeUndefined();
    expect(cheapest([size(128, 1), size(256, 2)], 256)).toBeUndefined();
  });

  it("falls back to a cold start within WORTH_MS of the full vCPU's when that one is over the limit", () => {
    const over = LIMITS.coldStartMs * 2;
    const slow = [
      size(512, 1, { warm: 100, cold: over * 1.5 }),
      size(1024, 2, { warm: 100, cold: over + WORTH_MS / 2 }),
      size(1769, 3, { warm: 100, cold: over }),
    ];

    expect(cheapest(slow, 100)?.memoryMb).toBe(1024);
    expect(cheapest(slow.slice(1), 1100)?.memoryMb).toBe(1769);
  });

  it("chooses among atEachMemory's sizes, falling back when no size is fast enough", () => {
    const sizes = atEachMemory(fastRoute, 'http', deployed);
    expect(sizes.map(({ memoryMb }) => memoryMb)).toEqual([...MEMORY_SIZES]);
    for (const s of sizes) {
      expect(s.usdPerMillion).toBeCloseTo(
        total(billOf(fastRoute, 'http', { ...deployed, memoryMb: s.memoryMb })),
        12,
      );
      expect(s.warmP99Ms).toBeCloseTo(warmP99Ms(fastRoute, s.memoryMb), 12);
      expect(s.coldStartMs).toBeCloseTo(coldStartMs(fastRoute, s.memoryMb, 'http'), 12);
    }
    const within = sizes.filter(
      (s) =>
        s.memoryMb > 100 && s.warmP99Ms < LIMITS.warmP99Ms && s.coldStartMs < LIMITS.coldStartMs,
    );
    // some sizes are too slow, some are not
    expect(within.length).toBeGreaterThan(0);
    expect(within.length).toBeLessThan(sizes.length);
    expect(cheapest(sizes, 100)?.usdPerMillion).toBe(
      Math.min(...within.map((s) => s.usdPerMillion)),
    );

    // a p99 over the limit whatever the memory: its calls alone take longer
    const slow = atEachMemory(
      withMore(fastRoute, { dynamoWaits: LIMITS.warmP99Ms / A.dynamoCallMs.value }),
      'http',
      deployed,
    );
    expect(slow.every((s) => s.warmP99Ms >= LIMITS.warmP99Ms)).toBe(true);
    const full = slow[slow.length - 1] as AtMemory;
    const chosen = cheapest(slow, 100) as AtMemory;
    expect(chosen.warmP99Ms).toBeLessThanOrEqual(full.warmP99Ms + WORTH_MS);
    // not the full vCPU itself: a smaller size near it costs less
    expect(chosen.memoryMb).toBeLessThan(full.memoryMb);
    expect(chosen.usdPerMillion).toBeLessThan(full.usdPerMillion);
    const cheaper = slow.filter(({ usdPerMillion }) => usdPerMillion < chosen.usdPerMillion);
    expect(cheaper.length).toBeGreaterThan(0);
    for (const s of cheaper) expect(s.warmP99Ms).toBeGreaterThan(full.warmP99Ms + WORTH_MS);
  });
});
