// `npm run bench:profile -- <function> [invocations]`: where one function's warm time goes beside
// its floor's. Both are built as the bench builds them but unminified (so that the profile names
// what it measured), each runs alone in bench/probe.mjs's warm mode (DynamoDB and the receiver
// stubbed in its process, a new token each invocation) under `node --cpu-prof`, and the functions
// whose time differs most are printed per invocation: their own time, and with what they call.
// The profiles stay in the folder printed last, for Chrome's DevTools (Performance, Load profile).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureLocalKeys } from '../infra/local/keys.ts';
import { repoRoot } from '../infra/local/paths.ts';
import { startJwksServer } from '../test/support/jwksServer.ts';
import { buildBundles } from './bundles.ts';
import { functionOf, type Kind, kinds, toMeasure, unmeasured } from './functions.ts';
import { functionEnv, probe } from './measure.ts';
import { out, say, WARM_UP } from './settings.ts';
import { writeTokens } from './tokens.ts';

const [kind, count = '5000'] = process.argv.slice(2) as [Kind | undefined, string?];
const notYet = unmeasured.filter((name) => name === kind);
if (notYet.length > 0) {
  say(`The bench does not measure ${toMeasure(notYet)}.`);
  process.exit(2);
}
if (!kind || !kinds.includes(kind)) {
  say(`Which function? npm run bench:profile -- <${kinds.join('|')}> [invocations]`);
  process.exit(2);
}

type ProfileNode = {
  id: number;
  callFrame: Record<'functionName' | 'url', string>;
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/** Microseconds per invocation in each function: its own, and with what it calls. */
const timesOf = (file: string, invocations: number) => {
  const { nodes, samples, timeDeltas } = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  // a function by its name and its module (the bundle's own code by name alone: both bundles hold it)
  const nameOf = ({ callFrame: { functionName, url } }: ProfileNode) =>
    `${functionName || '(anonymous)'}${url.endsWith('.mjs') ? '' : ` ${url.split('/').pop()}`}`;
  const own = new Map<string, number>();
  const total = new Map<string, number>();
  samples.forEach((id, i) => {
    const us = (timeDeltas[i] ?? 0) / invocations;
    const leaf = byId.get(id);
    if (!leaf) return;
    own.set(nameOf(leaf), (own.get(nameOf(leaf)) ?? 0) + us);
    const counted = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const name = nameOf(byId.get(at) as ProfileNode);
      if (counted.has(name)) continue;
      counted.add(name);
      total.set(name, (total.get(name) ?? 0) + us);
    }
  });
  return { own, total };
};

const work = mkdtempSync(join(tmpdir(), 'plant-store-profile-'));
const keys = await ensureLocalKeys(work);
const jwks = await startJwksServer(JSON.parse(readFileSync(keys.jwksPath, 'utf8')));
try {
  const invocations = Number(count);
  const tokensFile = await writeTokens(work, keys, WARM_UP + invocations);
  say(`Building ${kind} and its floor, unminified...`);
  const entry = (...dir: string[]) => join(repoRoot, ...dir, `${functionOf(kind)}.ts`);
  const entries = { ours: entry('handlers'), floor: entry('bench', 'baseline') };
  const bundles = await buildBundles(join(work, 'functions'), entries, { readable: true });
  const times = {} as Record<'ours' | 'floor', ReturnType<typeof timesOf>>;
  for (const [name, bundle] of Object.entries(bundles) as ['ours' | 'floor', string][]) {
    say(`Profiling ${name}: ${invocations} warm invocations...`);
    const dir = join(work, 'profiles', name);
    mkdirSync(dir, { recursive: true });
    const env = functionEnv(work, jwks.url, tokensFile);
    const ids = { BENCH_FIRST_ID: '1', BENCH_SECOND_FIRST_ID: '1' };
    const flags = ['--cpu-prof', `--cpu-prof-dir=${dir}`];
    await probe(['warm', kind, String(invocations), bundle], { ...env, ...ids }, flags);
    const [file] = readdirSync(dir);
    times[name] = timesOf(join(dir, file ?? ''), invocations);
  }
  for (const what of ['own', 'total'] as const) {
    const names = new Set([...times.ours[what].keys(), ...times.floor[what].keys()]);
    const rows = [...names]
      .map((name) => {
        const [ours, floor] = [times.ours[what].get(name) ?? 0, times.floor[what].get(name) ?? 0];
        return { name, ours, floor, more: ours - floor };
      })
      .sort((a, b) => Math.abs(b.more) - Math.abs(a.more))
      .slice(0, 25);
    out(
      '',
      `| ${what === 'own' ? 'own time' : 'with what it calls'}, µs per invocation | ours | floor | ours − floor |`,
      '|---|---:|---:|---:|',
      ...rows.map(
        ({ name, ours, floor, more }) =>
          `| ${name} | ${ours.toFixed(1)} | ${floor.toFixed(1)} | ${more > 0 ? '+' : ''}${more.toFixed(1)} |`,
      ),
    );
  }
  say(
    `\nProfiled under the sampler, so slower than the bench measures. The profiles: ${join(work, 'profiles')}`,
  );
} finally {
  await jwks.stop();
}
