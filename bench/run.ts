// `npm run bench`: every function against a bare baseline of its own job (bench/baseline/<name>.ts:
// the same jose verification, the same DynamoDB command or webhook delivery; no Middy, Zod or
// Powertools), both built with serverless.yml's esbuild settings; a route without its baseline or
// its request (bench/requests.mjs) is named last, not measured. For each function: bundle bytes;
// cold start (a fresh process per run, ours and the baseline in turn, its dependencies stubbed in
// another process); warm p50 with the dependencies stubbed in process (CPU only), for new callers
// and for one repeat caller; warm p50 with DynamoDB Local (or, for the webhook, a receiver in
// another process); peak RSS with the heap of a 128 MB function. Warm runs load ours and the
// baseline into one process and invoke them in turn, so whatever slows the machine slows both
// alike. Each ratio is a median over runs, with its interquartile range. Prints one table, writes
// bench/results.json, and says how far each ratio moved from the previous run's. The create's peers
// (bench/peers/: Powertools' event handler, Hono, Express) and its observed floor run in its cold
// and warm CPU runs too, each as a ratio to the create's floor. `-- --only <name,...>`: those
// functions alone, bench/results.json left as it was. The cost of a million of each route and event
// (bench/cost/) and a month of each traffic profile (bench/cost/profiles/), checked against
// bench/cost-budget.json; `-- --cost`: the cost again from
// bench/results.json's figures, nothing measured (after a change of price, memory or logging);
// `-- --write-budget`: this run's cost as the budget.
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
if (values.cost) {
  // a route that costs more than its budget fails the bench (the line naming it is printed)
  if (recost(values['write-budget']).overBudget.length > 0) process.exitCode = 1;
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
  const { overBudget } = report(
    await measureFunctions(stack, tokensFile, bundles, measured),
    values['write-budget'],
  );
  // a route that costs more than its budget fails the bench (the line naming it is printed)
  if (overBudget.length > 0) process.exitCode = 1;
} finally {
  for (const stop of stops.reverse()) await stop();
}
