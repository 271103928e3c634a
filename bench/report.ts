// The figures as one table on stdout and in bench/results.json, with how far each ratio moved
// from the previous run's, to show how far one run can be trusted.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../infra/local/paths.ts';
import { reportCost } from './cost/report.ts';
import { kinds, PEERS_KIND, references, toMeasure, unmeasured } from './functions.ts';
import { elapsed, out, settings } from './settings.ts';
import type { Figures, FunctionFigures, PeerFigures, Spread } from './stats.ts';

const RATIO_NAMES = [
  'bundle',
  'coldStart',
  'warmCpuP50',
  'repeatCallerWarmCpuP50',
  'warmStoreP50',
] as const;
type RatioName = (typeof RATIO_NAMES)[number];
type Ratios = Record<string, Record<string, number>>;
const resultsFile = join(repoRoot, 'bench', 'results.json');
const medianOf = (f: FunctionFigures, name: RatioName): number | undefined => {
  const value = f.ratios[name];
  return typeof value === 'number' ? value : value?.median;
};

export const report = (figures: Figures, writeBudget = false) => {
  const measured = kinds.flatMap((kind) => (figures[kind] ? [[kind, figures[kind]] as const] : []));
  const medians = (f: FunctionFigures) =>
    RATIO_NAMES.map((name) => [name, medianOf(f, name)]).filter(([, value]) => value !== undefined);
  const perFunction = Object.fromEntries(
    measured.map(([kind, f]) => [kind, Object.fromEntries(medians(f))]),
  );
  // the worst function's: the targets are set for it
  const worstOf = Object.fromEntries(
    RATIO_NAMES.map((name) => [
      name,
      Math.max(...measured.map(([, f]) => medianOf(f, name) ?? Number.NEGATIVE_INFINITY)),
    ]),
  ) as Record<RatioName, number>;
  // the create's peers, and the references apart from them
  const create = figures[PEERS_KIND];
  const beside = Object.entries<PeerFigures>(create?.peers ?? {});
  const referenceFigures = Object.fromEntries(beside.filter(([name]) => name in references));
  const peerFigures = Object.fromEntries(beside.filter(([name]) => !(name in references)));
  const results = {
    measuredAt: new Date().toISOString(),
    node: process.versions.node,
    settings,
    functions: figures,
    ratios: { ...perFunction, ...worstOf },
    peakRssMb: Math.max(...measured.map(([, f]) => f.peakRssMb.ours)),
    ...(beside.length > 0 && {
      peers: ratiosOf(peerFigures),
      references: ratiosOf(referenceFigures),
    }),
  };

  // how far each ratio moved, the peers' and the references' too
  const previous = previousRun();
  const before: Ratios = { ...previous?.ratios, ...previous?.peers, ...previous?.references };
  const now: Ratios = { ...perFunction, ...results.peers, ...results.references };
  const moves = Object.entries(now).flatMap(([name, ratios]) =>
    Object.entries(ratios).flatMap(([ratio, value]) => {
      const was = before[name]?.[ratio];
      return typeof was === 'number'
        ? [{ name: `${name} ${ratio}`, by: Math.round((value - was) * 1000) / 1000 }]
        : [];
    }),
  );
  // a run of some functions (--only) would leave the others' figures out
  const complete = measured.length === kinds.length;

  printTable(measured, worstOf, results.peakRssMb);
  out(
    complete
      ? 'Figures in bench/results.json.'
      : 'Only some functions measured (--only): bench/results.json left as it was.',
  );
  if (create && beside.length > 0) printPeers(create, referenceFigures, peerFigures);
  if (moves.length > 0) {
    const largest = moves.reduce((a, b) => (Math.abs(b.by) > Math.abs(a.by) ? b : a));
    const sign = largest.by > 0 ? '+' : '';
    out(
      `Against the previous run (${previous?.measuredAt}): every ratio within ±${Math.abs(largest.by).toFixed(3)}; the largest move ${sign}${largest.by.toFixed(3)} (${largest.name}).`,
    );
  }
  const { overBudget } = costed(results, complete, writeBudget);
  // last, so that a route new to the list is not missed in a table that has no row of it
  if (unmeasured.length > 0) out(`Not measured: ${toMeasure(unmeasured)}.`);
  return { overBudget };
};

/** The cost of the results' figures, written beside them when complete; the rows over budget printed. */
const costed = (results: { functions: Figures }, complete: boolean, writeBudget: boolean) => {
  const { cost, overBudget } = reportCost(results.functions, complete, writeBudget);
  if (complete) writeFileSync(resultsFile, `${JSON.stringify({ ...results, cost }, null, 2)}\n`);
  for (const line of overBudget) out(line);
  return { overBudget };
};
/** The cost again from bench/results.json's figures (`--cost`), written back beside them. */
export const recost = (writeBudget = false) =>
  costed(JSON.parse(readFileSync(resultsFile, 'utf8')), true, writeBudget);

/** The previous run's results, when measured with these settings (otherwise they say nothing). */
const previousRun = () => {
  if (!existsSync(resultsFile)) return undefined;
  const previous = JSON.parse(readFileSync(resultsFile, 'utf8')) as { measuredAt?: string } & {
    [part in 'settings' | 'ratios' | 'peers' | 'references']?: Ratios;
  };
  return JSON.stringify(previous.settings) === JSON.stringify(settings) ? previous : undefined;
};

const cell = (s: Spread | undefined) =>
  s ? `${s.median.toFixed(2)} (${s.q1.toFixed(2)}–${s.q3.toFixed(2)})` : '–';
const ms = (s: { ours: Spread; baseline: Spread }) =>
  [s.ours, s.baseline].map(({ median }) => median.toFixed(median >= 10 ? 0 : 2)).join(' / ');
/** The worst ratio, or – when no function measured has it. */
const worst = (ratio: number) => (Number.isFinite(ratio) ? ratio.toFixed(2) : '–');

type Measured = (readonly [string, FunctionFigures])[];
const printTable = (measured: Measured, worstOf: Record<RatioName, number>, peakRssMb: number) => {
  out(
    '',
    '| function | bundle KB | ratio | cold start ms | ratio (IQR) | warm CPU p50 ms | ratio (IQR) | repeat caller (IQR) | with store p50 ms | ratio (IQR) | peak RSS MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...measured.map(
      ([kind, f]) =>
        `| ${kind} | ${(f.bundle.ours / 1000).toFixed(0)} / ${(f.bundle.baseline / 1000).toFixed(0)} | ${f.ratios.bundle.toFixed(2)} | ${f.coldStartMs ? ms(f.coldStartMs) : '–'} | ${cell(f.ratios.coldStart)} | ${ms(f.warmCpuP50Ms)} | ${cell(f.ratios.warmCpuP50)} | ${cell(f.ratios.repeatCallerWarmCpuP50)} | ${ms(f.warmStoreP50Ms)} | ${cell(f.ratios.warmStoreP50)} | ${f.peakRssMb.ours.toFixed(0)} / ${f.peakRssMb.baseline.toFixed(0)} |`,
    ),
    `| **worst** | | ${worst(worstOf.bundle)} | | ${worst(worstOf.coldStart)} | | ${worst(worstOf.warmCpuP50)} | ${worst(worstOf.repeatCallerWarmCpuP50)} | | ${worst(worstOf.warmStoreP50)} | ${peakRssMb.toFixed(0)} |`,
    '',
    `Ours / baseline; ratios are medians over runs (interquartile range). Node ${process.versions.node}; ${settings.coldRuns} cold runs (${settings.peersColdRuns} for ${PEERS_KIND} and its peers), ${settings.warmRuns} warm runs of ${settings.warmInvocations} invocations each (${settings.repeatCallerRuns} of ${settings.repeatCallerInvocations} for one repeat caller, ${settings.storeRuns} of ${settings.storeInvocations} with the store; the large plant's kinds, :large, ${settings.largeShare} of each and no cold start); ${elapsed()}.`,
  );
};

/** Each peer's or reference's ratios to the create's floor, as results.json holds them. */
const ratiosOf = (peerFigures: Record<string, PeerFigures>) =>
  Object.fromEntries(
    Object.entries(peerFigures).map(([peer, { ratios: r }]) => [
      peer,
      { bundle: r.bundle, coldStart: r.coldStart.median, warmCpuP50: r.warmCpuP50.median },
    ]),
  );

/** The create beside its peers, every figure a ratio to its floor from the same runs. */
const printPeers = (
  ours: FunctionFigures,
  referenceFigures: Record<string, PeerFigures>,
  peers: Record<string, PeerFigures>,
) => {
  const rows = [
    ['ours', ours],
    ...Object.entries(referenceFigures).map(
      ([name, figures]) => [references[name as keyof typeof references], figures] as const,
    ),
    ...Object.entries(peers),
  ] as const;
  out(
    '',
    `| ${PEERS_KIND} implementation | bundle | cold start (IQR) | warm CPU p50 (IQR) |`,
    '|---|---:|---:|---:|',
    ...rows.map(
      ([name, { ratios }]) =>
        `| ${name} | ${ratios.bundle.toFixed(2)} | ${cell(ratios.coldStart)} | ${cell(ratios.warmCpuP50)} |`,
    ),
    '',
    `Ratios to the floor (bench/baseline), from the same interleaved runs; the references (bench/baseline/observed/): ${Object.values(references).join('; ')}.`,
  );
};
