// How much one run measures (fewer runs or invocations when the environment says so), and how
// far it has got.
const setting = (name: string, fallback: number) => Number(process.env[name] || fallback);
export const settings = {
  coldRuns: setting('BENCH_COLD_RUNS', 61),
  warmRuns: setting('BENCH_WARM_RUNS', 5),
  // as few invocations as keep two runs' ratios within ±0.05, so that the whole bench stays within
  // 10 minutes on the slowest machine it has run on; the repeat caller's and the store's ratios
  // vary least
  warmInvocations: setting('BENCH_WARM_INVOCATIONS', 600),
  repeatCallerInvocations: setting('BENCH_REPEAT_CALLER_INVOCATIONS', 250),
  storeInvocations: setting('BENCH_STORE_INVOCATIONS', 250),
  memoryInvocations: setting('BENCH_MEMORY_INVOCATIONS', 400),
};
/** Invocations each warm process makes, per function, before it measures. */
export const WARM_UP = 50;

export const say = (line: string) => process.stderr.write(`${line}\n`);
const started = performance.now();
export const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
