// Every function against a bare baseline of the same job (bench/baseline/<function>.ts), side by
// side: bundle bytes, cold start to the first response, warm CPU per invocation. Dependencies are
// stubs in the probe's process (bench/functionProbe.mjs), each invocation presents a new token,
// and ours and the baseline alternate run by run. Each figure is a median over the runs, with its
// interquartile range.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { repoRoot } from '../infra/local/paths.ts';
import { buildEntries } from './build.ts';

const run = promisify(execFile);

export const FUNCTIONS = {
  create: 'createPlant',
  list: 'listPlants',
  get: 'getPlant',
  update: 'updatePlant',
  delete: 'deletePlant',
  deliver: 'deliverPlantAdded',
} as const;
export type FunctionKind = keyof typeof FUNCTIONS;

export interface Spread {
  median: number;
  /** The interquartile range: half the runs lie within it. */
  q1: number;
  q3: number;
}

export interface FunctionFigures {
  bundle: { ours: number; baseline: number; oursGzip: number; baselineGzip: number };
  coldStartMs: { ours: Spread; baseline: Spread };
  warmCpuP50Ms: { ours: Spread; baseline: Spread };
  ratios: { bundle: number; bundleGzip: number; coldStart: Spread; warmCpuP50: Spread };
}

const quantile = (sorted: number[], q: number) => {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (at - low);
};
export const spread = (values: number[]): Spread => {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    median: round(quantile(sorted, 0.5)),
    q1: round(quantile(sorted, 0.25)),
    q3: round(quantile(sorted, 0.75)),
  };
};

export interface PerFunctionOptions {
  work: string;
  env: NodeJS.ProcessEnv;
  tokensFile: string;
  coldRuns: number;
  warmRuns: number;
  invocations: number;
  say: (line: string) => void;
}

export const measureFunctions = async ({
  work,
  env,
  tokensFile,
  coldRuns,
  warmRuns,
  invocations,
  say,
}: PerFunctionOptions): Promise<Record<FunctionKind, FunctionFigures>> => {
  const entries: Record<string, string> = {};
  for (const name of Object.values(FUNCTIONS)) {
    entries[`ours-${name}`] = join(repoRoot, 'handlers', `${name}.ts`);
    entries[`baseline-${name}`] = join(repoRoot, 'bench', 'baseline', `${name}.ts`);
  }
  say('Every function: building ours and the baselines...');
  const bundles = await buildEntries(join(work, 'functions'), entries);

  const probe = async (bundle: string, mode: 'cold' | 'warm', kind: FunctionKind) => {
    const result = join(work, 'function-probe.json');
    await run(
      process.execPath,
      [join(repoRoot, 'bench', 'functionProbe.mjs'), bundle, mode, String(invocations), kind],
      {
        env: { ...env, BENCH_TOKENS_FILE: tokensFile, BENCH_RESULT_FILE: result },
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    return JSON.parse(readFileSync(result, 'utf8')) as {
      firstResponseMs?: number;
      p50Ms?: number;
    };
  };

  const figures = {} as Record<FunctionKind, FunctionFigures>;
  for (const [kind, name] of Object.entries(FUNCTIONS) as [FunctionKind, string][]) {
    const ours = bundles[`ours-${name}`] ?? '';
    const baseline = bundles[`baseline-${name}`] ?? '';
    const size = (file: string) => {
      const bytes = readFileSync(file);
      return { raw: bytes.length, gzip: gzipSync(bytes).length };
    };
    const [oursSize, baselineSize] = [size(ours), size(baseline)];

    // alternating, and each run's ratio taken against the baseline run beside it
    const alternate = async (mode: 'cold' | 'warm', runs: number) => {
      const figure = (result: { firstResponseMs?: number; p50Ms?: number }) =>
        (mode === 'cold' ? result.firstResponseMs : result.p50Ms) ?? 0;
      const measured = { ours: [] as number[], baseline: [] as number[], ratios: [] as number[] };
      for (let i = 0; i < runs; i++) {
        const oursFirst = i % 2 === 0;
        const a = figure(await probe(oursFirst ? ours : baseline, mode, kind));
        const b = figure(await probe(oursFirst ? baseline : ours, mode, kind));
        const [o, base] = oursFirst ? [a, b] : [b, a];
        measured.ours.push(o);
        measured.baseline.push(base);
        measured.ratios.push(o / base);
      }
      return measured;
    };
    const cold = await alternate('cold', coldRuns);
    const warm = await alternate('warm', warmRuns);
    figures[kind] = {
      bundle: {
        ours: oursSize.raw,
        baseline: baselineSize.raw,
        oursGzip: oursSize.gzip,
        baselineGzip: baselineSize.gzip,
      },
      coldStartMs: { ours: spread(cold.ours), baseline: spread(cold.baseline) },
      warmCpuP50Ms: { ours: spread(warm.ours), baseline: spread(warm.baseline) },
      ratios: {
        bundle: Math.round((oursSize.raw / baselineSize.raw) * 1000) / 1000,
        bundleGzip: Math.round((oursSize.gzip / baselineSize.gzip) * 1000) / 1000,
        coldStart: spread(cold.ratios),
        warmCpuP50: spread(warm.ratios),
      },
    };
    const r = figures[kind].ratios;
    say(
      `  ${name}: bundle ${r.bundle}, cold start ${r.coldStart.median} (IQR ${r.coldStart.q1}–${r.coldStart.q3}), warm CPU p50 ${r.warmCpuP50.median} (IQR ${r.warmCpuP50.q1}–${r.warmCpuP50.q3})`,
    );
  }
  return figures;
};
