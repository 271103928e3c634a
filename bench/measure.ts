// Each function and its baseline, built with the deploy settings, measured side by side through
// bench/probe.mjs: bundle bytes; cold starts (a fresh process per run, ours and the baseline in
// turn, the dependencies stubbed in another process); warm p50 with the dependencies stubbed in
// process (CPU only), for new callers and for one repeat caller; warm p50 with the store; peak RSS
// with the heap of a 128 MB function. Each run's ratio is taken against its pair.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { ROUTES } from '#lib/routes/routeList.ts';
import { LOCAL_AUDIENCE, LOCAL_ISSUER } from '../infra/local/keys.ts';
import { repoRoot } from '../infra/local/paths.ts';
import { buildBundles } from './bundles.ts';
import { stubItems } from './endpointItems.ts';
import * as f from './functions.ts';
import type { Metered } from './meter.ts';
import { prepareRun } from './seed.ts';
import { elapsed, say, settings, WARM_UP } from './settings.ts';
import { PLANTS_TABLE, type Stack, WEBHOOKS_TABLE } from './stack.ts';
import * as stats from './stats.ts';

const execute = promisify(execFile);
/** V8's heap of a 128 MB Lambda function: left alone, V8 sizes it by this machine's memory. */
const HEAP_OF_A_128_MB_FUNCTION = ['--max-old-space-size=64', '--max-semi-space-size=2'];

/** One function's bundle and its baseline's; for the create, its peers' and references' too. */
type Pair = { ours: string; baseline: string; peers?: Record<f.Comparison, string> };
export type Env = Record<string, string | undefined>;
export const buildFunctions = async (work: string): Promise<Record<f.Kind, Pair>> => {
  say('Building every function and its baseline with the deploy settings...');
  const baseline = join(repoRoot, 'bench', 'baseline');
  const bundles = await buildBundles(join(work, 'functions'), {
    ...Object.fromEntries(
      f.functions.flatMap((name) => [
        [`ours-${name}`, join(repoRoot, 'handlers', `${name}.ts`)],
        [`baseline-${name}`, join(baseline, `${name}.ts`)],
      ]),
    ),
    ...Object.fromEntries(
      f.comparisons.map((name) => [
        `peer-${name}`,
        join(repoRoot, 'bench', name in f.references ? 'baseline/observed' : 'peers', `${name}.ts`),
      ]),
    ),
  });
  const built = (name: string) => bundles[name] ?? '';
  const peers = Object.fromEntries(f.comparisons.map((name) => [name, built(`peer-${name}`)]));
  return Object.fromEntries(
    f.kinds.map((kind) => [
      kind,
      {
        ours: built(`ours-${f.functionOf(kind)}`),
        baseline: built(`baseline-${f.functionOf(kind)}`),
        ...(kind === f.PEERS_KIND ? { peers } : {}),
      },
    ]),
  ) as Record<f.Kind, Pair>;
};

/** Lambda's environment pointed at this machine; DynamoDB and the receiver stubbed unless given. */
export const functionEnv = (work: string, jwksUrl: string, tokensFile: string): Env => ({
  PATH: process.env.PATH,
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
  PLANTS_TABLE,
  WEBHOOKS_TABLE,
  // the bench's endpoints are at an address (bench/requests.mjs): registering one resolves no name
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  AUTH_ISSUER: LOCAL_ISSUER,
  AUTH_AUDIENCE: LOCAL_AUDIENCE,
  AUTH_JWKS_URL: jwksUrl,
  WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
  // read at cold start; every delivery of the bench succeeds, so nothing is ever sent there
  WEBHOOK_RETRY_QUEUE_URL: 'http://127.0.0.1:9/000000000000/unused',
  WEBHOOK_DEAD_LETTER_QUEUE_URL: 'http://127.0.0.1:9/000000000000/unused',
  BENCH_TOKENS_FILE: tokensFile,
  BENCH_WARM_UP: String(WARM_UP),
  BENCH_RESULT_FILE: join(work, 'probe.json'),
  // the route list and the stub's items as data: a probe that imported them would load Node's
  // TypeScript support, and measure its memory with the function's
  BENCH_ROUTES: JSON.stringify(ROUTES),
  BENCH_STUB_ITEMS: stubItems(),
});

export const measureFunctions = async (
  stack: Stack,
  tokensFile: string,
  bundles: Record<f.Kind, Pair>,
  measured: readonly f.Kind[],
): Promise<stats.Figures> => {
  const env = functionEnv(stack.work, stack.jwksUrl, tokensFile);
  // the cold starts' dependencies: the stubs process's, and the meter's receiver (bench/stack.ts)
  const withStubs = { ...env, BENCH_DEPENDENCIES: 'given', ...stack.stubs };
  // the warm runs "with the store" and the memory runs: DynamoDB Local, the same receiver
  const withTheStore = { ...withStubs, DYNAMODB_ENDPOINT: stack.dynamoEndpoint };
  const repeatCallerEnv = { ...env, BENCH_REPEAT_CALLER: '1' };

  say('Warming DynamoDB Local up (a run whose figures are discarded)...');
  const { ours, baseline } = bundles.createPlant;
  const warmUpRun = ['warm', 'createPlant', String(settings.storeInvocations), ours, baseline];
  await probe(warmUpRun, { ...withTheStore, ...freshIds() });

  const figures: stats.Figures = {};
  for (const [index, kind] of measured.entries()) {
    const pair = bundles[kind];
    const subject: Subject = {
      kind,
      pair,
      stack,
      progress: (what, done, of) =>
        say(`  [${index + 1}/${measured.length}] ${kind}: ${what} ${done}/${of} (${elapsed()})`),
    };
    const { warmRuns: w, warmInvocations: wn, storeRuns: s, storeInvocations: sn } = settings;
    const { repeatCallerRuns: r, repeatCallerInvocations: rn } = settings;
    // a large plant's cold start would be its function's: the same bundle and init
    const cold = f.isLarge(kind) ? undefined : await coldStarts(subject, withStubs);
    const warmCpu = await warmRuns(subject, 'warm, CPU only', w, wn, env, true);
    const repeatCaller = f.hasCaller(kind)
      ? await warmRuns(subject, 'warm, CPU only, one repeat caller', r, rn, repeatCallerEnv)
      : undefined;
    const warmStore = await warmRuns(subject, 'warm, with the store', s, sn, withTheStore);
    const memory = {
      ours: await peakRss(subject, pair.ours, withTheStore),
      baseline: await peakRss(subject, pair.baseline, withTheStore),
    };
    subject.progress('peak RSS', 1, 1);
    const bundle = { ours: size(pair.ours), baseline: size(pair.baseline) };
    const usageOf = (name: string, metered?: Metered) => {
      const first = name === 'baseline' ? cold?.runs.ours.baseline : cold?.runs[name]?.ours;
      const starts = cold && { firstResponseMs: first ?? [], importMs: cold.importMs[name] ?? [] };
      return stats.usage(warmCpu.more[name], starts, metered);
    };
    const peerFigures = (peer: f.Comparison, file: string) => ({
      ...stats.peerFiguresOf(
        { ours: size(file), baseline: bundle.baseline },
        cold?.runs[peer] ?? stats.newRuns(),
        warmCpu.runs[peer] ?? stats.newRuns(),
      ),
      usage: usageOf(peer),
    });
    const { peers } = pair;
    figures[kind] = {
      ...stats.figuresOf({
        bundle,
        cold: cold?.runs.ours,
        warmCpu: warmCpu.runs.ours,
        repeatCaller: repeatCaller?.runs.ours,
        warmStore: warmStore.runs.ours,
        peakRssMb: { ours: memory.ours.peakRssMb, baseline: memory.baseline.peakRssMb },
      }),
      usage: {
        ours: usageOf('ours', memory.ours.metered),
        baseline: usageOf('baseline', memory.baseline.metered),
      },
      ...(peers && {
        peers: Object.fromEntries(f.comparisons.map((p) => [p, peerFigures(p, peers[p])])),
      }),
    };
  }
  return figures;
};

/** The function measured: its bundles, and how it says how far it has got. */
type Subject = { kind: f.Kind; pair: Pair; stack: Stack; progress: (...at: Progress) => void };
type Progress = [what: string, done: number, of: number];

/** The bundles a run compares (`withPeers`: the create's peers too), each recorded against the baseline. */
const runsOf = (pair: Pair, withPeers: boolean) => {
  const bundles: [string, string][] = [
    ['ours', pair.ours],
    ['baseline', pair.baseline],
    ...(withPeers ? Object.entries(pair.peers ?? {}) : []),
  ];
  const runs: Record<string, stats.Runs> = Object.fromEntries(
    bundles.flatMap(([name]) => (name === 'baseline' ? [] : [[name, stats.newRuns()]])),
  );
  const add = (figure: Record<string, number>) => {
    for (const [name, r] of Object.entries(runs))
      stats.record(r, figure[name] ?? 0, figure.baseline ?? 0);
  };
  /** The bundles in run `run`'s order: each takes each place in turn. */
  const inTurn = (run: number): [string, string][] =>
    bundles.map((_, k) => bundles[(run + k) % bundles.length] ?? ['', '']);
  return { runs: runs as Record<string, stats.Runs> & { ours: stats.Runs }, add, inTurn };
};

type ColdFigures = Record<'importMs' | 'firstResponseMs', number>;
/** A fresh process per run, each bundle in turn; the create's peers with it, in more runs. */
const coldStarts = async ({ kind, pair, progress }: Subject, env: Env) => {
  const { runs, add, inTurn } = runsOf(pair, true);
  /** Each bundle's import (its init), per run: the part Lambda runs with burst CPU. */
  const importMs: Record<string, number[]> = {};
  const count = pair.peers ? settings.peersColdRuns : settings.coldRuns;
  for (let run = 0; run < count; run++) {
    const firstResponseMs: Record<string, number> = {};
    for (const [name, bundle] of inTurn(run)) {
      const result = await probe<ColdFigures>(['cold', kind, bundle], env);
      firstResponseMs[name] = result.firstResponseMs;
      importMs[name] = [...(importMs[name] ?? []), result.importMs];
    }
    add(firstResponseMs);
    if ((run + 1) % 5 === 0 || run + 1 === count) progress('cold starts', run + 1, count);
  }
  return { runs, importMs };
};

/** What a warm process tells of each bundle besides its p50, per run (bench/probe.mjs). */
const WARM_FIGURES = ['p99Ms', 'meanMs', 'logBytes', 'responseBytes'] as const;
type WarmFigure = (typeof WARM_FIGURES)[number];

/** All in one process, invoked in turn; the one loaded first rotates too. */
const warmRuns = async (
  subject: Subject,
  what: string,
  processes: number,
  invocations: number,
  env: Env,
  withPeers = false,
) => {
  const { warmUp, count } = invocationsOf(subject.kind, invocations);
  const { runs, add, inTurn } = runsOf(subject.pair, withPeers);
  const more: Record<string, Record<WarmFigure, number[]>> = {};
  for (let run = 0; run < processes; run++) {
    const ids = freshIds();
    await prepareStore(subject, env, Object.values(ids), warmUp + count);
    const order = inTurn(run);
    const result = await probe<{ p50Ms: number[] } & Record<WarmFigure, number[]>>(
      ['warm', subject.kind, String(count), ...order.map(([, bundle]) => bundle)],
      { ...env, ...ids, BENCH_WARM_UP: String(warmUp) },
    );
    add(Object.fromEntries(order.map(([name], k) => [name, result.p50Ms[k] ?? 0])));
    for (const [k, [name]] of order.entries()) {
      more[name] ??= { p99Ms: [], meanMs: [], logBytes: [], responseBytes: [] };
      for (const figure of WARM_FIGURES) more[name][figure].push(result[figure][k] ?? 0);
    }
    subject.progress(what, run + 1, processes);
  }
  return { runs, more };
};

/** A process's invocations, its warm-up's and those measured: a large plant's kind makes fewer. */
const invocationsOf = (kind: f.Kind, count: number) => {
  const share = f.isLarge(kind) ? settings.largeShare : 1;
  return { warmUp: Math.ceil(WARM_UP * share), count: Math.ceil(count * share) };
};

/** One bundle alone, a 128 MB function's heap, through the meter: peak RSS, AWS asked per invocation. */
const peakRss = async (subject: Subject, bundle: string, env: Env) => {
  const { stubs, meter } = subject.stack;
  const ids = freshIds();
  const { warmUp, count } = invocationsOf(subject.kind, settings.memoryInvocations);
  await prepareStore(subject, env, [ids.BENCH_FIRST_ID], warmUp + count);
  // DynamoDB's and SQS's URLs pointed at the meter (bench/meter.ts), the queues' too; S3's (a batch
  // given up only, no bill line) left at the stubs
  const metered = Object.entries(stubs)
    .filter(([name]) => name === 'AWS_ENDPOINT_URL_SQS' || name.endsWith('_QUEUE_URL'))
    .map(([name, url]) => [name, url.replace(new URL(url).origin, meter.url)]);
  const toMeter = { DYNAMODB_ENDPOINT: meter.url, ...Object.fromEntries(metered) };
  meter.take();
  const result = await probe<{ peakRssMb: number }>(
    ['memory', subject.kind, String(count), bundle],
    { ...env, ...toMeter, ...ids, BENCH_WARM_UP: String(warmUp) },
    HEAP_OF_A_128_MB_FUNCTION,
  );
  // the run's counts divided among its invocations
  const perInvocation: Metered = JSON.parse(JSON.stringify(meter.take()), (_, value) =>
    typeof value === 'number' ? value / (warmUp + count) : value,
  );
  return { peakRssMb: result.peakRssMb, metered: perInvocation };
};

/** What a run with the store needs stored first (bench/seed.ts). */
const prepareStore = async ({ kind, stack }: Subject, env: Env, ids: string[], count: number) => {
  if (env.DYNAMODB_ENDPOINT === stack.dynamoEndpoint)
    await prepareRun(stack, f.functionOf(kind), ids.map(Number), count);
};

/** Runs bench/probe.mjs in a fresh process with `env`; returns the figures it wrote. */
export const probe = async <Figures>(args: string[], env: Env, nodeFlags: string[] = []) => {
  await execute(process.execPath, [...nodeFlags, join(repoRoot, 'bench', 'probe.mjs'), ...args], {
    env,
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(readFileSync(env.BENCH_RESULT_FILE ?? '', 'utf8')) as Figures;
};

let nextFirstId = 10_000_000;
/** Fresh plant ids (or endpoint numbers) for one process: a block for each bundle loaded. */
const freshIds = () => {
  nextFirstId += 10_000_000;
  return {
    BENCH_FIRST_ID: String(nextFirstId),
    BENCH_SECOND_FIRST_ID: String(nextFirstId + 500_000),
  };
};

const size = (file: string) => {
  const bytes = readFileSync(file);
  return { raw: bytes.length, gzip: gzipSync(bytes).length };
};
