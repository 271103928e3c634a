// How much one run measures (fewer runs or invocations when the environment says so), and how
// far it has got.
const setting = (name: string, fallback: number) => Number(process.env[name] || fallback);
export const settings = {
  coldRuns: setting('BENCH_COLD_RUNS', 61),
  warmRuns: setting('BENCH_WARM_RUNS', 5),
  warmInvocations: setting('BENCH_WARM_INVOCATIONS', 1000),
  storeInvocations: setting('BENCH_STORE_INVOCATIONS', 400),
  memoryInvocations: setting('BENCH_MEMORY_INVOCATIONS', 400),
};
/** Invocations each warm process makes, per function, before it measures. */
export const WARM_UP = 50;

export const say = (line: string) => process.stderr.write(`${line}\n`);
const started = performance.now();
export const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
