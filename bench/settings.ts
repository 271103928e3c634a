// How much one run measures (fewer runs or invocations when the environment says so), and how
// far it has got.
const setting = (name: string, fallback: number) => Number(process.env[name] || fallback);
// As few runs and invocations as keep two runs' ratios within ±0.05, so that the whole bench (20
// functions, and 3 with the large plant) stays within about 15 minutes: the create's peers need 61 cold runs and 5 warm
// processes (41 and 3 moved the Powertools peer's ratio by 0.063); ours against its floor alone
// varies less, and the repeat caller's and the store's ratios vary least (their interquartile range
// within 0.02 over 5 processes), so 3 processes each.
export const settings = {
  coldRuns: setting('BENCH_COLD_RUNS', 41),
  peersColdRuns: setting('BENCH_PEERS_COLD_RUNS', 61),
  warmRuns: setting('BENCH_WARM_RUNS', 5),
  warmInvocations: setting('BENCH_WARM_INVOCATIONS', 600),
  repeatCallerRuns: setting('BENCH_REPEAT_CALLER_RUNS', 3),
  repeatCallerInvocations: setting('BENCH_REPEAT_CALLER_INVOCATIONS', 250),
  storeRuns: setting('BENCH_STORE_RUNS', 3),
  storeInvocations: setting('BENCH_STORE_INVOCATIONS', 250),
  memoryInvocations: setting('BENCH_MEMORY_INVOCATIONS', 400),
  // a large plant's invocation (bench/requests.mjs) takes about 20 times a small one's: each process
  // of its kinds makes this share of the invocations, its warm-up's included (30 s for the three)
  largeShare: setting('BENCH_LARGE_SHARE', 0.05),
};
/** Invocations each warm process makes, per function, before it measures. */
export const WARM_UP = 50;

export const say = (line: string) => process.stderr.write(`${line}\n`);
const started = performance.now();
export const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
/** Lines on stdout, each ended. */
export const out = (...lines: string[]) =>
  process.stdout.write(lines.map((l) => `${l}\n`).join(''));
/** A Markdown table: its header, its rows, each column right-aligned but the first. */
export const markdownTable = (head: string[], rows: string[][]) => {
  const line = (row: string[]) => `|${row.map((c) => (c ? ` ${c} ` : ' ')).join('|')}|`;
  const align = ['---', ...head.slice(1).map(() => '---:')];
  return [line(head), `|${align.join('|')}|`, ...rows.map(line)];
};
