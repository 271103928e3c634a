// The memory choice (bench/cost/model.ts chooseMemory, bench/cost/report.ts memoryOf): a rule by
// what waits on the function, read from the bench's figures as ratios to its reference, so that a
// faster or slower machine of this kind chooses the same sizes; the consumers' bound from
// serverless.yml's settings.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type AtMemory,
  atEachMemory,
  cheapest,
  cheapestDrained,
  chooseMemory,
  DRAIN_TARGET_PER_SECOND,
  drainBoundMs,
  STREAM_SHARDS,
} from '../../bench/cost/model.ts';
import { loadProfiles, plantChangesPerSecond } from '../../bench/cost/monthly.ts';
import { ASSUMPTIONS as A } from '../../bench/cost/prices.ts';
import { feedOf, memoryOf } from '../../bench/cost/report.ts';
import type { Kind } from '../../bench/functions.ts';
import type { FunctionFigures, Usage } from '../../bench/stats.ts';
import { declaredFunctions, repoRoot, yamlOf } from '../../infra/local/paths.ts';

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
const boundOf = (name: string, settings: Record<string, unknown> = custom) =>
  drainBoundMs(feedOf(declared[name], settings, provider.timeout));
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
      const feed = feedOf(declared[name], custom, provider.timeout);
      const asRoute = chooseMemory(f.usage.ours, f.peakRssMb.ours, 'http', deployed);
      const asConsumer = chooseMemory(f.usage.ours, f.peakRssMb.ours, 'queue', deployed, feed);
      expect(asConsumer.chosen?.memoryMb).toBeLessThan(asRoute.chosen?.memoryMb ?? 0);
      // the route's size is its caller's latency; the consumer's batch is within its bound
      expect(asConsumer.chosen?.batchMs).toBeLessThanOrEqual(asConsumer.boundMs ?? 0);
    }
  });

  const size = (memoryMb: number, usd: number, batch: number): AtMemory => ({
    memoryMb,
    usdPerMillion: usd,
    warmP99Ms: 0,
    coldStartMs: 0,
    batchMs: batch,
  });
  it("takes a consumer's cheapest size whose batch is within the bound, else the fastest batch", () => {
    const sizes = [size(128, 1, 600), size(256, 2, 300), size(512, 3, 200), size(1024, 4, 100)];
    expect(cheapestDrained(sizes, 100, 500)?.memoryMb).toBe(256);
    expect(cheapestDrained(sizes, 100, 600)?.memoryMb).toBe(128);
    // 128 MB does not hold a peak RSS of 130 MB
    expect(cheapestDrained(sizes, 130, 600)?.memoryMb).toBe(256);
    // none drains: the nearest, the fastest batch
    const chosen = cheapestDrained(sizes, 100, 50);
    expect(chosen?.memoryMb).toBe(1024);
  });

  it("models a consumer's batch as its messages at once: their CPU adds up, their waits do not", () => {
    const usage: Usage = { cpuMeanMs: 2, cpuP99Ms: 4, logBytes: 0, responseBytes: 0 };
    const feed = { batchSize: 10, batchesAtOnce: 10, timeoutS: 30 };
    const [at128] = chooseMemory(usage, 50, 'queue', deployed, feed).sizes;
    expect(at128?.batchMs).toBeCloseTo((10 * 2) / (128 / A.fullVcpuMb.value), 9);
  });
});

describe("a consumer's bound, from serverless.yml", () => {
  it("holds every consumer to the busiest traffic profile's plant changes a second", () => {
    expect(DRAIN_TARGET_PER_SECOND).toBe(Math.max(...loadProfiles().map(plantChangesPerSecond)));
  });

  it('keeps its source drained: batches at once × batch size carry the target a second', () => {
    const batchOf = (name: string) => feedOf(declared[name], custom, provider.timeout).batchSize;
    expect(boundOf('deliverToEndpoint')).toBe(
      ((custom.deliveryConcurrency as number) * batchOf('deliverToEndpoint') * 1000) /
        DRAIN_TARGET_PER_SECOND,
    );
    expect(boundOf('queueEndpointEvents')).toBe(
      (STREAM_SHARDS *
        (custom.streamParallelization as number) *
        batchOf('queueEndpointEvents') *
        1000) /
        DRAIN_TARGET_PER_SECOND,
    );
  });

  it('changes when the deployed concurrency does', () => {
    const twice = (key: string) => ({ ...custom, [key]: (custom[key] as number) * 2 });
    for (const name of ['deliverToEndpoint', 'retryPlantAdded'])
      expect(boundOf(name, twice('deliveryConcurrency'))).toBe(2 * boundOf(name));
    for (const name of ['queueEndpointEvents', 'deliverPlantAdded'])
      expect(boundOf(name, twice('streamParallelization'))).toBe(2 * boundOf(name));
    // the queues' concurrency is not the stream's
    expect(boundOf('queueEndpointEvents', twice('deliveryConcurrency'))).toBe(
      boundOf('queueEndpointEvents'),
    );
  });

  it('is the timeout alone for a queue whose batches at once have no cap', () => {
    const declaredTimeout = (declared.keepFailedStreamRecords as { timeout: number }).timeout;
    expect(boundOf('keepFailedStreamRecords')).toBe(declaredTimeout * 1000);
    expect(boundOf('keepFailedStreamRecords', { ...custom, deliveryConcurrency: 1 })).toBe(
      declaredTimeout * 1000,
    );
  });
});
