// The bench's summaries: a median with its interquartile range, and ratios rounded for reading;
// one function's runs summed up as its figures.
import type { Kind } from './functions.ts';
import type { Metered } from './meter.ts';

const round = (n: number) => Math.round(n * 1000) / 1000;
const quantile = (sorted: number[], q: number) => {
  const at = (sorted.length - 1) * q;
  const low = sorted[Math.floor(at)] ?? 0;
  return low + ((sorted[Math.ceil(at)] ?? 0) - low) * (at - Math.floor(at));
};
/** A median and its interquartile range (half the runs lie within q1–q3). */
export const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => round(quantile(sorted, q));
  return { median: at(0.5), q1: at(0.25), q3: at(0.75) };
};
export type Spread = ReturnType<typeof spread>;
export const ratio = (ours: number, baseline: number) => round(ours / baseline);

/** Each run's figure for ours and the baseline, and their ratio. */
const list = (): number[] => [];
export const newRuns = () => ({ ours: list(), baseline: list(), ratios: list() });
export type Runs = ReturnType<typeof newRuns>;
export const record = (runs: Runs, ours: number, baseline: number) => {
  runs.ours.push(ours);
  runs.baseline.push(baseline);
  runs.ratios.push(ours / baseline);
};

type Bundles = Record<'ours' | 'baseline', { raw: number; gzip: number }>;
/** A peer of the create (bench/peers/): its figures, and its ratios to the create's floor. */
export const peerFiguresOf = (bundle: Bundles, cold: Runs, warmCpu: Runs) => ({
  bundle: bundle.ours.raw,
  coldStartMs: spread(cold.ours),
  warmCpuP50Ms: spread(warmCpu.ours),
  ratios: {
    bundle: ratio(bundle.ours.raw, bundle.baseline.raw),
    coldStart: spread(cold.ratios),
    warmCpuP50: spread(warmCpu.ratios),
  },
});
export type PeerFigures = ReturnType<typeof peerFiguresOf>;

/**
 * One invocation as AWS bills it (bench/cost/): warm CPU (new callers, dependencies stubbed), cold
 * start and its import (medians), bytes logged and answered, what it asked of AWS (bench/meter.ts).
 */
export type Usage = Record<'cpuMeanMs' | 'cpuP99Ms' | 'logBytes' | 'responseBytes', number> & {
  coldStartMs?: number;
  importMs?: number;
  metered?: Metered;
};
const median = (values: number[] = []) => spread(values).median;
export const usage = (
  warm: Record<'meanMs' | 'p99Ms' | 'logBytes' | 'responseBytes', number[]> | undefined,
  cold: { firstResponseMs: number[]; importMs: number[] } | undefined,
  metered: Metered | undefined,
): Usage => ({
  cpuMeanMs: median(warm?.meanMs),
  cpuP99Ms: median(warm?.p99Ms),
  ...(cold ? { coldStartMs: median(cold.firstResponseMs), importMs: median(cold.importMs) } : {}),
  logBytes: median(warm?.logBytes),
  responseBytes: median(warm?.responseBytes),
  ...(metered ? { metered } : {}),
});

const medians = (runs: Runs) => ({ ours: spread(runs.ours), baseline: spread(runs.baseline) });
/** One function's figures: each measure's medians for ours and the baseline, and their ratios. */
export const figuresOf = (measured: {
  bundle: Bundles;
  cold: Runs | undefined;
  warmCpu: Runs;
  repeatCaller: Runs | undefined;
  warmStore: Runs;
  peakRssMb: { ours: number; baseline: number };
}) => {
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
export type FunctionFigures = ReturnType<typeof figuresOf> & {
  usage: { ours: Usage; baseline: Usage };
  peers?: Record<string, PeerFigures & { usage: Usage }>;
};
/** The functions measured: every kind, or those `--only` named. */
export type Figures = Partial<Record<Kind, FunctionFigures>>;
