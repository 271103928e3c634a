// The memory choice (bench/cost/model.ts chooseMemory, bench/cost/report.ts memoryOf): a rule by
// what waits on the function, read from the bench's figures as ratios to its reference, so that a
// faster or slower machine of this kind chooses the same sizes; the consumers' lanes from
// serverless.yml's settings and the busiest profile's traffic, and the sizes serverless.yml deploys.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type AtMemory,
  atEachMemory,
  cheapest,
  cheapestDrained,
  chooseMemory,
  drainPerSecond,
  type Lane,
  STREAM_SHARDS,
} from '../../bench/cost/model.ts';
import { ATTEMPTS_BY_DEFAULT, countsOf, parseProfile } from '../../bench/cost/monthly.ts';
import { ASSUMPTIONS as A } from '../../bench/cost/prices.ts';
import { lanesOf, memoryOf } from '../../bench/cost/report.ts';
import type { Kind } from '../../bench/functions.ts';
import type { FunctionFigures, Usage } from '../../bench/stats.ts';
import { declaredFunctions, repoRoot, yamlOf } from '../../infra/local/paths.ts';
import { DEFAULT_ATTEMPT_TIMEOUT_MS } from '../../lib/config/webhook.ts';

type Figures = Partial<Record<Kind, FunctionFigures>>;
const committed = JSON.parse(readFileSync(join(repoRoot, 'bench', 'results.json'), 'utf8'))
  .functions as Figures;

/** A usage as a machine `by` times slower would measure it: every time, none of the counts. */
const slowedBy = (usage: Usage, by: number): Usage => ({
  ...usage,
  cpuMeanMs: usage.cpuMeanMs * by,
  cpuP99Ms: usage.cpuP99Ms * by,
  ...(usage.coldStartMs === undefined ? {} : { coldStartMs: usage.coldStartMs * by }),
  ...(usage.importMs === undefined ? {} : { importMs: usage.importMs * by }),
});
/** The committed figures as that machine would have measured them, the floors' included. */
const onMachine = (by: number): Figures =>
  Object.fromEntries(
    Object.entries(committed).map(([kind, f]) => [
      kind,
      {
        ...f,
        usage: { ours: slowedBy(f.usage.ours, by), baseline: slowedBy(f.usage.baseline, by) },
      },
    ]),
  );
const chosenSizes = (figures: Figures) =>
  Object.fromEntries(Object.entries(memoryOf(figures)).map(([name, m]) => [name, m.chosenMb]));

const { custom, provider } = yamlOf('serverless.yml') as {
  custom: Record<string, number>;
  provider: { timeout: number };
};
const declared = declaredFunctions();
const lanesAt = (name: string, settings: Record<string, unknown> = custom) =>
  lanesOf(name, declared[name] as object, settings, provider.timeout);
const deployed = { memoryMb: 512, platformLogBytes: 0 };

describe('a choice any machine of this kind repeats', () => {
  it('chooses the same sizes from a machine twice as fast and one twice as slow', () => {
    const original = chosenSizes(committed);
    // every measured function gets a size: the reference (the create's floor) is in the figures
    expect(Object.keys(original).length).toBeGreaterThan(10);
    for (const size of Object.values(original)) expect(size).toBeGreaterThan(0);
    expect(chosenSizes(onMachine(2))).toEqual(original);
    expect(chosenSizes(onMachine(0.5))).toEqual(original);
  });

  it("would not without the calibration: the slow machine's own milliseconds choose otherwise", () => {
    const create = committed.createPlant as FunctionFigures;
    const asMeasured = (by: number) =>
      cheapest(
        atEachMemory(slowedBy(create.usage.ours, by), 'http', deployed),
        create.peakRssMb.ours,
      )?.memoryMb;
    expect(asMeasured(2)).not.toBe(asMeasured(0.5));
  });

  it('chooses nothing without the reference in the same run', () => {
    const { createPlant: _, ...withoutReference } = committed;
    const memory = memoryOf(withoutReference);
    expect(Object.keys(memory).length).toBeGreaterThan(0);
    for (const m of Object.values(memory)) expect(m.chosenMb).toBeUndefined();
  });
});

describe('memory by what waits on the function', () => {
  it('gives a consumer a smaller size than a route of the same figures', () => {
    for (const name of ['deliverToEndpoint', 'queueEndpointEvents'] as const) {
      const f = committed[name] as FunctionFigures;
      const lanes = lanesAt(name);
      const asRoute = chooseMemory(f.usage.ours, f.peakRssMb.ours, 'http', deployed);
      const asConsumer = chooseMemory(f.usage.ours, f.peakRssMb.ours, 'queue', deployed, lanes);
      expect(asConsumer.chosen?.memoryMb).toBeLessThan(asRoute.chosen?.memoryMb ?? 0);
      // the route's size is its caller's latency; the consumer's lanes are drained
      expect(asConsumer.nearest).toBe(false);
    }
  });

  it("deploys each consumer at the size its figures choose (serverless.yml, the operator's file)", () => {
    const consumers = Object.entries(memoryOf(committed)).filter(([, m]) => m.trigger !== 'http');
    expect(consumers.map(([name]) => name).sort()).toEqual(
      [
        'deliverPlantAdded',
        'deliverToEndpoint',
        'keepFailedStreamRecords',
        'queueEndpointEvents',
        'retryPlantAdded',
      ].sort(),
    );
    for (const [name, m] of consumers)
      expect({ name, mb: m.chosenMb }).toEqual({ name, mb: m.deployedMb });
  });

  const lane = (perSecond: number, batchesAtOnce?: number): Lane => ({
    batchSize: 10,
    batchesAtOnce,
    timeoutS: 30,
    perSecond,
    receiverMs: 0,
  });
  const size = (memoryMb: number, usd: number, ...batchMs: number[]): AtMemory => ({
    memoryMb,
    usdPerMillion: usd,
    warmP99Ms: 0,
    coldStartMs: 0,
    lanes: batchMs.map((ms) => ({ batchMs: ms })),
  });
  it("takes a consumer's cheapest size draining every lane within its utilization, else the nearest", () => {
    // 10 batches at once of 10: 500 ms a batch drains 200 a second, 80% of it 160
    expect(drainPerSecond(lane(0, 10), 500)).toBe(200);
    expect(drainPerSecond(lane(0), 500)).toBe(Number.POSITIVE_INFINITY);
    expect(A.drainUtilization.value).toBe(0.8);
    const sizes = [size(128, 1, 1000), size(256, 2, 500), size(512, 3, 250), size(1024, 4, 125)];
    expect(cheapestDrained(sizes, 100, [lane(160, 10)])?.memoryMb).toBe(256);
    expect(cheapestDrained(sizes, 100, [lane(161, 10)])?.memoryMb).toBe(512);
    expect(cheapestDrained(sizes, 100, [lane(80, 10)])?.memoryMb).toBe(128);
    // 128 MB does not hold a peak RSS of 130 MB
    expect(cheapestDrained(sizes, 130, [lane(80, 10)])?.memoryMb).toBe(256);
    // none drains: the nearest, the fastest batch
    expect(cheapestDrained(sizes, 100, [lane(1000, 10)])?.memoryMb).toBe(1024);
  });

  it('holds a consumer to its slowest lane: a lane waiting on timeouts drains alike at any size', () => {
    // a main lane of quick receivers (batches 1,000 to 125 ms), a slow lane of timed-out ones
    const both = [
      size(128, 1, 1000, 5400),
      size(256, 2, 500, 5200),
      size(512, 3, 250, 5100),
      size(1024, 4, 125, 5050),
    ];
    // the slow lane drains 18.5 to 19.8 a second: 14.8 to 15.8 at 80%; memory buys it nothing
    expect(cheapestDrained(both, 100, [lane(80, 10), lane(5, 10)])?.memoryMb).toBe(128);
    expect(cheapestDrained(both, 100, [lane(160, 10), lane(5, 10)])?.memoryMb).toBe(256);
    // asked more than it can drain at any size, the slow lane takes the fastest
    expect(cheapestDrained(both, 100, [lane(80, 10), lane(20, 10)])?.memoryMb).toBe(1024);
    // a batch past the function's timeout drains nothing
    expect(
      cheapestDrained(both, 100, [lane(80, 10), { ...lane(1), timeoutS: 5.1 }])?.memoryMb,
    ).toBe(512);
  });

  it("models a consumer's batch as its messages at once: their CPU adds up, their waits do not", () => {
    const usage: Usage = { cpuMeanMs: 2, cpuP99Ms: 4, logBytes: 0, responseBytes: 0 };
    const [at128] = chooseMemory(usage, 50, 'queue', deployed, [lane(200, 10)]).sizes;
    expect(at128?.lanes?.[0]?.batchMs).toBeCloseTo((10 * 2) / (128 / A.fullVcpuMb.value), 9);
  });
});

describe("a consumer's lanes, from serverless.yml and the traffic profiles", () => {
  // 10 requests a second, all creates: 10 changes, 10 plants added; half to 2 endpoints each
  const small = parseProfile('small', {
    description: 'by hand',
    stage: 'dev',
    rate: { perSecond: 10 },
    routeMix: { createPlant: 1 },
    endpointEvents: { shareOfChanges: 0.5, endpointsEach: 2 },
    failedReceiverShare: 0.1,
    timedOutReceiverShare: 0.05,
    operatorWebhook: true,
    plantsStored: { items: 0, averageItemBytes: 1 },
  });

  it("counts each lane's messages a second and its receivers' time, by hand", () => {
    expect(countsOf(small)).toEqual({ changes: 10, adds: 10, deliveries: 10 });
    expect(ATTEMPTS_BY_DEFAULT).toBe(8);
    const [quick, timeout] = [A.receiverMs.value, DEFAULT_ATTEMPT_TIMEOUT_MS];
    const demands = (name: string) =>
      lanesOf(name, declared[name] as object, custom, provider.timeout, small).map((l) => [
        Number(l.perSecond.toFixed(9)),
        l.receiverMs,
      ]);
    // the main lane: every first attempt but the timed-out 5%'s (on the slow lane, their endpoint
    // failing); the slow lane: the failed 10%'s retry, the timed-out 5%'s 8 attempts
    expect(demands('deliverToEndpoint')).toEqual([
      [9.5, quick],
      [1 + 0.5 * 8, timeout],
    ]);
    expect(demands('deliverPlantAdded')).toEqual([[10, quick]]);
    // the operator's retries: its failed share, each waiting up to the timeout
    expect(demands('retryPlantAdded')).toEqual([[1, timeout]]);
    for (const name of ['queueEndpointEvents', 'keepFailedStreamRecords'])
      expect(demands(name)).toEqual([[10, 0]]);
  });

  it('takes each lane by the queue it reads, whatever the order of the events', () => {
    const { events = [], ...rest } = declared.deliverToEndpoint as { events?: unknown[] };
    const reordered = { ...rest, events: [...events].reverse() } as object;
    const lanes = lanesOf('deliverToEndpoint', reordered, custom, provider.timeout);
    expect(lanes.map((l) => l.receiverMs)).toEqual([
      DEFAULT_ATTEMPT_TIMEOUT_MS,
      A.receiverMs.value,
    ]);
  });

  it('reads each lane of serverless.yml: its batch size, its batches at once, the timeout', () => {
    const [main, slow] = lanesAt('deliverToEndpoint');
    for (const l of [main, slow]) {
      expect(l?.batchesAtOnce).toBe(custom.deliveryConcurrency);
      expect(l?.batchSize).toBe(10);
    }
    expect([main?.receiverMs, slow?.receiverMs]).toEqual([
      A.receiverMs.value,
      DEFAULT_ATTEMPT_TIMEOUT_MS,
    ]);
    expect(lanesAt('queueEndpointEvents')[0]?.batchesAtOnce).toBe(
      STREAM_SHARDS * (custom.streamParallelization as number),
    );
    // a timed-out receiver caps a lane at about 20 a second at any size (10 batches of 10, 5 s each)
    expect(drainPerSecond(slow as Lane, DEFAULT_ATTEMPT_TIMEOUT_MS)).toBe(20);
  });

  it('changes when the deployed concurrency does', () => {
    const twice = (key: string) => ({ ...custom, [key]: (custom[key] as number) * 2 });
    const atOnce = (name: string, settings?: Record<string, unknown>) =>
      lanesAt(name, settings).map((l) => l.batchesAtOnce);
    for (const name of ['deliverToEndpoint', 'retryPlantAdded'])
      expect(atOnce(name, twice('deliveryConcurrency'))).toEqual(
        atOnce(name).map((n) => 2 * (n ?? 0)),
      );
    for (const name of ['queueEndpointEvents', 'deliverPlantAdded'])
      expect(atOnce(name, twice('streamParallelization'))).toEqual(
        atOnce(name).map((n) => 2 * (n ?? 0)),
      );
    // the queues' concurrency is not the stream's
    expect(atOnce('queueEndpointEvents', twice('deliveryConcurrency'))).toEqual(
      atOnce('queueEndpointEvents'),
    );
  });

  it('has no cap for a queue without maximumConcurrency: only its timeout bounds a batch', () => {
    expect(lanesAt('keepFailedStreamRecords').map((l) => l.batchesAtOnce)).toEqual([undefined]);
  });
});
