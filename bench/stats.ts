// The bench's summaries: a median with its interquartile range, and ratios rounded for reading;
// one function's runs summed up as its figures.
import type { Metered } from './meter.ts';

export interface Spread {
  median: number;
  /** The interquartile range: half the runs lie within it. */
  q1: number;
  q3: number;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

const quantile = (sorted: number[], q: number) => {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (at - low);
};

export const spread = (values: number[]): Spread => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: round(quantile(sorted, 0.5)),
    q1: round(quantile(sorted, 0.25)),
    q3: round(quantile(sorted, 0.75)),
  };
};

export const ratio = (ours: number, baseline: number) => round(ours / baseline);

/** Each run's figure for ours and the baseline, and their ratio. */
export interface Runs {
  ours: number[];
  baseline: number[];
  ratios: number[];
}
export const newRuns = (): Runs => ({ ours: [], baseline: [], ratios: [] });
export const record = (runs: Runs, ours: number, baseline: number) => {
  runs.ours.push(ours);
  runs.baseline.push(baseline);
  runs.ratios.push(ours / baseline);
};

/** A peer of the create (bench/peers/): its figures, and its ratios to the create's floor. */
export interface PeerFigures {
  bundle: number;
  coldStartMs: Spread;
  warmCpuP50Ms: Spread;
  ratios: { bundle: number; coldStart: Spread; warmCpuP50: Spread };
}

export const peerFiguresOf = (measured: {
  bundle: { ours: Size; baseline: Size };
  cold: Runs;
  warmCpu: Runs;
}): PeerFigures => ({
  bundle: measured.bundle.ours.raw,
  coldStartMs: spread(measured.cold.ours),
  warmCpuP50Ms: spread(measured.warmCpu.ours),
  ratios: {
    bundle: ratio(measured.bundle.ours.raw, measured.bundle.baseline.raw),
    coldStart: spread(measured.cold.ratios),
    warmCpuP50: spread(measured.warmCpu.ratios),
  },
});

/**
 * What one invocation uses, as AWS bills it (bench/cost/): its warm CPU time (new callers, the
 * dependencies stubbed), its cold start and the import within it (medians over runs), the bytes it
 * writes to its log and answers, and, from the memory runs, what it asked of AWS (bench/meter.ts).
 */
export interface Usage {
  cpuMeanMs: number;
  cpuP99Ms: number;
  coldStartMs?: number;
  importMs?: number;
  logBytes: number;
  responseBytes: number;
  metered?: Metered;
}
const median = (values: number[]) => spread(values).median;
export const usage = ({
  warm,
  cold,
  metered,
}: {
  warm:
    | { meanMs: number[]; p99Ms: number[]; logBytes: number[]; responseBytes: number[] }
    | undefined;
  cold: { firstResponseMs: number[]; importMs: number[] } | undefined;
  metered: Metered | undefined;
}): Usage => ({
  cpuMeanMs: median(warm?.meanMs ?? []),
  cpuP99Ms: median(warm?.p99Ms ?? []),
  ...(cold ? { coldStartMs: median(cold.firstResponseMs), importMs: median(cold.importMs) } : {}),
  logBytes: median(warm?.logBytes ?? []),
  responseBytes: median(warm?.responseBytes ?? []),
  ...(metered ? { metered } : {}),
});

export interface FunctionFigures {
  bundle: { ours: number; baseline: number; oursGzip: number; baselineGzip: number };
  coldStartMs?: { ours: Spread; baseline: Spread };
  warmCpuP50Ms: { ours: Spread; baseline: Spread };
  repeatCallerWarmCpuP50Ms?: { ours: Spread; baseline: Spread };
  warmStoreP50Ms: { ours: Spread; baseline: Spread };
  peakRssMb: { ours: number; baseline: number };
  usage: { ours: Usage; baseline: Usage };
  peers?: Record<string, PeerFigures & { usage: Usage }>;
  ratios: {
    bundle: number;
    bundleGzip: number;
    coldStart?: Spread;
    warmCpuP50: Spread;
    repeatCallerWarmCpuP50?: Spread;
    warmStoreP50: Spread;
  };
}

type Size = { raw: number; gzip: number };
const medians = (runs: Runs) => ({ ours: spread(runs.ours), baseline: spread(runs.baseline) });

export const figuresOf = (measured: {
  bundle: { ours: Size; baseline: Size };
  cold: Runs | undefined;
  warmCpu: Runs;
  repeatCaller: Runs | undefined;
  warmStore: Runs;
  peakRssMb: { ours: number; baseline: number };
}): Omit<FunctionFigures, 'usage'> => {
  const { bundle, cold, warmCpu, repeatCaller, warmStore, peakRssMb } = measured;
  return {
    bundle: {
      ours: bundle.ours.raw,
      baseline: bundle.baseline.raw,
      oursGzip: bundle.ours.gzip,
      baselineGzip: bundle.baseline.gzip,
    },
    ...(cold ? { coldStartMs: medians(cold) } : {}),
    warmCpuP50Ms: medians(warmCpu),
    ...(repeatCaller ? { repeatCallerWarmCpuP50Ms: medians(repeatCaller) } : {}),
    warmStoreP50Ms: medians(warmStore),
    peakRssMb,
    ratios: {
      bundle: ratio(bundle.ours.raw, bundle.baseline.raw),
      bundleGzip: ratio(bundle.ours.gzip, bundle.baseline.gzip),
      ...(cold ? { coldStart: spread(cold.ratios) } : {}),
      warmCpuP50: spread(warmCpu.ratios),
      ...(repeatCaller ? { repeatCallerWarmCpuP50: spread(repeatCaller.ratios) } : {}),
      warmStoreP50: spread(warmStore.ratios),
    },
  };
};
