// `npm run bench`: every function against a bare baseline of its own job (bench/baseline/<name>.ts),
// both built with serverless.yml's esbuild settings, measured side by side (bench/measure.ts); the
// create's peers (bench/peers/) and its references too. Prints one table, writes
// bench/results.json (not with `-- --only <name,...>`: those functions alone) and says how far each
// ratio moved; then the cost of a million of each route and event and a month of each traffic
// profile (bench/cost/), checked against bench/cost-budget.json. `-- --cost`: the cost again from
// bench/results.json's figures, nothing measured; `-- --write-budget`: this run's cost as the
// budget. docs/performance.md says what each figure is.
import { parseArgs } from 'node:util';
import { kindsNamed } from './functions.ts';
import { buildFunctions, measureFunctions } from './measure.ts';
import { recost, report } from './report.ts';
import { seedStore } from './seed.ts';
import { startStack } from './stack.ts';
import { writeTokens } from './tokens.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    cost: { type: 'boolean' },
    'write-budget': { type: 'boolean' },
  },
});
// a route that costs more than its budget fails the bench (the line naming it is printed)
const failOver = ({ overBudget }: { overBudget: string[] }) => {
  if (overBudget.length > 0) process.exitCode = 1;
};
if (values.cost) {
  failOver(recost(values['write-budget']));
  process.exit();
}
const measured = (() => {
  try {
    return kindsNamed(values.only);
  } catch (error) {
    // a name to correct, not a fault of the bench: its message alone
    console.error((error as Error).message);
    process.exit(2);
  }
})();
/** What to stop at the end, pushed as it starts (the last started stops first). */
const stops: (() => unknown)[] = [];
try {
  const stack = await startStack(stops);
  await seedStore(stack);
  const tokensFile = await writeTokens(stack.work, stack.keys);
  const bundles = await buildFunctions(stack.work);
  const figures = await measureFunctions(stack, tokensFile, bundles, measured);
  failOver(report(figures, values['write-budget']));
} finally {
  for (const stop of stops.reverse()) await stop();
}
