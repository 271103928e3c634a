// `npm run bench`: every function against a bare baseline of its own job (bench/baseline/<name>.ts:
// the same jose verification, the same DynamoDB command or webhook delivery; no Middy, Zod or
// Powertools), both built with serverless.yml's esbuild settings. For each function: bundle bytes;
// cold start (a fresh process per run, ours and the baseline in turn, its dependencies stubbed in
// another process); warm p50 with the dependencies stubbed in process (CPU only), for new callers
// and for one repeat caller; warm p50 with DynamoDB Local (or, for the webhook, a receiver in this
// process); peak RSS with the heap of a 128 MB function. Warm runs load ours and the baseline into
// one process and invoke them in turn, so whatever slows the machine slows both alike. Each ratio
// is a median over runs, with its interquartile range. Prints one table, writes
// bench/results.json, and says how far each ratio moved from the previous run's.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { type AttributeValue, BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
import { buildBundles } from '../infra/build/bundles.ts';
import { localDynamoClient } from '../infra/local/dynamoClient.ts';
import { startDynamoDbLocal } from '../infra/local/dynamodbLocal.ts';
import { freePort } from '../infra/local/freePort.ts';
import {
  ensureLocalKeys,
  LOCAL_AUDIENCE,
  LOCAL_ISSUER,
  mintLocalToken,
} from '../infra/local/keys.ts';
import { repoRoot } from '../infra/local/paths.ts';
import { ensurePlantsTable } from '../infra/local/plantsTable.ts';
import { ROUTE_NAMES } from '../lib/routes/routeList.ts';
import { type JwksServer, startJwksServer } from '../test/support/jwksServer.ts';
import { ratio, type Spread, spread } from './stats.ts';

const execute = promisify(execFile);
/** Every function, by its name (bench/probe.mjs's kinds): the routes of the list, the webhook's. */
const kinds = [...ROUTE_NAMES, 'deliverPlantAdded'] as const;
type Kind = (typeof kinds)[number];
const FUNCTIONS = Object.fromEntries(kinds.map((kind) => [kind, kind])) as Record<Kind, Kind>;
/** The functions that verify a caller's token (the webhook has no caller). */
const hasCaller = (kind: Kind) => kind !== 'deliverPlantAdded';
/**
 * V8's heap held to what fits a 128 MB Lambda function (Lambda's smallest size). Left alone, V8
 * sizes its heap from this machine's memory and collects lazily, which measures the machine.
 */
const HEAP_OF_A_128_MB_FUNCTION = ['--max-old-space-size=64', '--max-semi-space-size=2'];
/** Invocations each warm process makes, per function, before it measures. */
const WARM_UP = 50;
const setting = (name: string, fallback: number) => Number(process.env[name] || fallback);
const settings = {
  coldRuns: setting('BENCH_COLD_RUNS', 31),
  warmRuns: setting('BENCH_WARM_RUNS', 3),
  warmInvocations: setting('BENCH_WARM_INVOCATIONS', 1000),
  storeInvocations: setting('BENCH_STORE_INVOCATIONS', 400),
  memoryInvocations: setting('BENCH_MEMORY_INVOCATIONS', 400),
};
const PLANTS_TABLE = 'plants-bench';
const CALLER = 'bench';

interface FunctionFigures {
  bundle: { ours: number; baseline: number; oursGzip: number; baselineGzip: number };
  coldStartMs: { ours: Spread; baseline: Spread };
  warmCpuP50Ms: { ours: Spread; baseline: Spread };
  repeatCallerWarmCpuP50Ms?: { ours: Spread; baseline: Spread };
  warmStoreP50Ms: { ours: Spread; baseline: Spread };
  peakRssMb: { ours: number; baseline: number };
  ratios: {
    bundle: number;
    bundleGzip: number;
    coldStart: Spread;
    warmCpuP50: Spread;
    repeatCallerWarmCpuP50?: Spread;
    warmStoreP50: Spread;
  };
}
const RATIO_NAMES = [
  'bundle',
  'coldStart',
  'warmCpuP50',
  'repeatCallerWarmCpuP50',
  'warmStoreP50',
] as const;
type RatioName = (typeof RATIO_NAMES)[number];

const say = (line: string) => process.stderr.write(`${line}\n`);
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

const work = mkdtempSync(join(tmpdir(), 'plant-store-bench-'));
let jwks: JwksServer | undefined;
let receiver: Server | undefined;
let stopStubs = () => {};
say('Starting DynamoDB Local (in memory)...');
const dynamo = await startDynamoDbLocal({ port: await freePort() });
const dynamoClient = localDynamoClient(dynamo.endpoint);
try {
  const item = (id: number): Record<string, AttributeValue> => ({
    id: { N: String(id) },
    name: { S: 'Monstera' },
    tag: { S: 'indoor' },
    createdAt: { S: new Date(Date.UTC(2026, 10, 22, 10, 0, 0, id % 1000)).toISOString() },
    createdBy: { S: CALLER },
    version: { N: '1' },
  });
  const seed = async (ids: number[]) => {
    for (let i = 0; i < ids.length; i += 25) {
      let pending: BatchWriteItemCommand['input']['RequestItems'] = {
        [PLANTS_TABLE]: ids.slice(i, i + 25).map((id) => ({ PutRequest: { Item: item(id) } })),
      };
      while (pending && Object.keys(pending).length > 0) {
        ({ UnprocessedItems: pending } = await dynamoClient.send(
          new BatchWriteItemCommand({ RequestItems: pending }),
        ));
      }
    }
  };
  await ensurePlantsTable(dynamoClient, PLANTS_TABLE);
  // the caller's plants the list pages through, among them the one get and update read
  await seed(Array.from({ length: 40 }, (_, i) => i + 1));

  const keys = await ensureLocalKeys(work);
  const tokenCount =
    2 *
    (WARM_UP +
      Math.max(settings.warmInvocations, settings.storeInvocations, settings.memoryInvocations));
  say(`Minting ${tokenCount} tokens, one per invocation (one caller, each token distinct)...`);
  const tokens: string[] = [];
  for (let i = 0; i < tokenCount; i++) {
    tokens.push(
      await mintLocalToken(keys.privateJwk, { sub: CALLER, ttlSeconds: 3600, jti: `bench-${i}` }),
    );
  }
  const tokensFile = join(work, 'tokens.txt');
  writeFileSync(tokensFile, tokens.join('\n'));
  // keys from a JWKS URL, as every deployed stage has them: each cold start fetches them once
  jwks = await startJwksServer(JSON.parse(readFileSync(keys.jwksPath, 'utf8')));
  // the webhook's receiver for the runs "with the store": another process, over real sockets
  const webhookReceiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  receiver = webhookReceiver;
  const receiverPort = await freePort();
  await new Promise<void>((resolve) => webhookReceiver.listen(receiverPort, '127.0.0.1', resolve));

  // what Lambda would give the functions, pointed at the local stack
  const env = {
    PATH: process.env.PATH,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    PLANTS_TABLE,
    AUTH_ISSUER: LOCAL_ISSUER,
    AUTH_AUDIENCE: LOCAL_AUDIENCE,
    AUTH_JWKS_URL: jwks.url,
    WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
    WEBHOOK_DEAD_LETTER_DIR: join(work, 'dead-letters'),
    BENCH_TOKENS_FILE: tokensFile,
    BENCH_WARM_UP: String(WARM_UP),
  };
  // the warm runs "with the store" and the memory runs: DynamoDB Local, the receiver above
  const withTheStore = {
    BENCH_DEPENDENCIES: 'given',
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    WEBHOOK_URL: `http://127.0.0.1:${receiverPort}/hooks`,
  };

  say('Building every function and its baseline with the deploy settings...');
  const entries: Record<string, string> = {};
  for (const name of Object.values(FUNCTIONS)) {
    entries[`ours-${name}`] = join(repoRoot, 'handlers', `${name}.ts`);
    entries[`baseline-${name}`] = join(repoRoot, 'bench', 'baseline', `${name}.ts`);
  }
  const bundles = await buildBundles(join(work, 'functions'), entries);

  let nextFirstId = 1_000_000;
  /** Fresh plant ids for one process: a block for the bundle loaded first, one for the second. */
  const freshIds = () => {
    nextFirstId += 1_000_000;
    return {
      BENCH_FIRST_ID: String(nextFirstId),
      BENCH_SECOND_FIRST_ID: String(nextFirstId + 500_000),
    };
  };
  const resultFile = join(work, 'probe.json');
  const probe = async <Figures>(
    args: string[],
    extraEnv: Record<string, string> = {},
    nodeFlags: string[] = [],
  ): Promise<Figures> => {
    await execute(process.execPath, [...nodeFlags, join(repoRoot, 'bench', 'probe.mjs'), ...args], {
      env: { ...env, ...extraEnv, BENCH_RESULT_FILE: resultFile },
      maxBuffer: 256 * 1024 * 1024,
    });
    return JSON.parse(readFileSync(resultFile, 'utf8')) as Figures;
  };
  /** The plants a delete run with the store removes, stored first: `count` from each first id. */
  const seedDeletions = async (kind: Kind, ids: Record<string, string>, count: number) => {
    if (kind !== 'deletePlant') return;
    for (const first of Object.values(ids)) {
      await seed(Array.from({ length: count }, (_, i) => Number(first) + i));
    }
  };

  // the cold starts' dependencies: stubs in a process of their own, so that each cold start loads
  // node:http itself, as the handler does in Lambda
  const stubsProcess = spawn(process.execPath, [join(repoRoot, 'bench', 'probe.mjs'), 'stubs'], {
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  stopStubs = () => stubsProcess.stdin.end();
  const [stubsLine] = (await once(createInterface({ input: stubsProcess.stdout }), 'line')) as [
    string,
  ];
  const withStubs = {
    BENCH_DEPENDENCIES: 'given',
    ...(JSON.parse(stubsLine) as Record<string, string>),
  };

  say('Warming DynamoDB Local up (a run whose figures are discarded)...');
  const createBundles = [bundles['ours-createPlant'] ?? '', bundles['baseline-createPlant'] ?? ''];
  await probe(['warm', 'createPlant', String(settings.storeInvocations), ...createBundles], {
    ...freshIds(),
    ...withTheStore,
  });

  const figures = {} as Record<Kind, FunctionFigures>;
  for (const [index, kind] of kinds.entries()) {
    const name = FUNCTIONS[kind];
    const ours = bundles[`ours-${name}`] ?? '';
    const baseline = bundles[`baseline-${name}`] ?? '';
    const progress = (what: string, done: number, of: number) =>
      say(`  [${index + 1}/${kinds.length}] ${name}: ${what} ${done}/${of} (${elapsed()})`);

    // a fresh process per run, ours and the baseline in turn, each run's ratio against its pair
    const cold = { ours: [] as number[], baseline: [] as number[], ratios: [] as number[] };
    for (let run = 0; run < settings.coldRuns; run++) {
      const order =
        run % 2 === 0 ? (['ours', 'baseline'] as const) : (['baseline', 'ours'] as const);
      const firstResponse: Record<string, number> = {};
      for (const subject of order) {
        const bundle = subject === 'ours' ? ours : baseline;
        const result = await probe<{ firstResponseMs: number }>(['cold', kind, bundle], withStubs);
        firstResponse[subject] = result.firstResponseMs;
      }
      cold.ours.push(firstResponse.ours ?? 0);
      cold.baseline.push(firstResponse.baseline ?? 0);
      cold.ratios.push((firstResponse.ours ?? 0) / (firstResponse.baseline ?? 1));
      if ((run + 1) % 5 === 0 || run + 1 === settings.coldRuns) {
        progress('cold starts', run + 1, settings.coldRuns);
      }
    }

    // both in one process, invoked in turn
    const warm = async (what: string, invocations: number, extraEnv: Record<string, string>) => {
      const runs = { ours: [] as number[], baseline: [] as number[], ratios: [] as number[] };
      for (let run = 0; run < settings.warmRuns; run++) {
        const ids = freshIds();
        if (extraEnv === withTheStore) await seedDeletions(kind, ids, WARM_UP + invocations);
        // the one loaded first alternates too
        const [first, second] = run % 2 === 0 ? [ours, baseline] : [baseline, ours];
        const result = await probe<{ firstP50Ms: number; secondP50Ms: number }>(
          ['warm', kind, String(invocations), first, second],
          { ...ids, ...extraEnv },
        );
        const [o, b] =
          run % 2 === 0
            ? [result.firstP50Ms, result.secondP50Ms]
            : [result.secondP50Ms, result.firstP50Ms];
        runs.ours.push(o);
        runs.baseline.push(b);
        runs.ratios.push(o / b);
        progress(what, run + 1, settings.warmRuns);
      }
      return runs;
    };
    const warmCpu = await warm('warm, CPU only', settings.warmInvocations, {});
    const repeatCaller = hasCaller(kind)
      ? await warm('warm, CPU only, one repeat caller', settings.warmInvocations, {
          BENCH_REPEAT_CALLER: '1',
        })
      : undefined;
    const warmStore = await warm('warm, with the store', settings.storeInvocations, withTheStore);

    const peakRss = async (bundle: string) => {
      const ids = freshIds();
      await seedDeletions(
        kind,
        { BENCH_FIRST_ID: ids.BENCH_FIRST_ID },
        WARM_UP + settings.memoryInvocations,
      );
      const result = await probe<{ peakRssMb: number }>(
        ['memory', kind, String(settings.memoryInvocations), bundle],
        { ...ids, ...withTheStore },
        HEAP_OF_A_128_MB_FUNCTION,
      );
      return result.peakRssMb;
    };
    const peakRssMb = { ours: await peakRss(ours), baseline: await peakRss(baseline) };
    progress('peak RSS', 1, 1);

    const size = (file: string) => {
      const bytes = readFileSync(file);
      return { raw: bytes.length, gzip: gzipSync(bytes).length };
    };
    const [oursSize, baselineSize] = [size(ours), size(baseline)];
    const pair = (runs: { ours: number[]; baseline: number[] }) => ({
      ours: spread(runs.ours),
      baseline: spread(runs.baseline),
    });
    figures[kind] = {
      bundle: {
        ours: oursSize.raw,
        baseline: baselineSize.raw,
        oursGzip: oursSize.gzip,
        baselineGzip: baselineSize.gzip,
      },
      coldStartMs: pair(cold),
      warmCpuP50Ms: pair(warmCpu),
      ...(repeatCaller ? { repeatCallerWarmCpuP50Ms: pair(repeatCaller) } : {}),
      warmStoreP50Ms: pair(warmStore),
      peakRssMb,
      ratios: {
        bundle: ratio(oursSize.raw, baselineSize.raw),
        bundleGzip: ratio(oursSize.gzip, baselineSize.gzip),
        coldStart: spread(cold.ratios),
        warmCpuP50: spread(warmCpu.ratios),
        ...(repeatCaller ? { repeatCallerWarmCpuP50: spread(repeatCaller.ratios) } : {}),
        warmStoreP50: spread(warmStore.ratios),
      },
    };
  }

  const medianOf = (kind: Kind, name: RatioName): number | undefined => {
    const value = figures[kind].ratios[name];
    return typeof value === 'number' ? value : value?.median;
  };
  const worst = (name: RatioName) =>
    Math.max(...kinds.map((kind) => medianOf(kind, name) ?? Number.NEGATIVE_INFINITY));
  const perFunction = Object.fromEntries(
    kinds.map((kind) => [
      kind,
      Object.fromEntries(
        RATIO_NAMES.flatMap((name) => {
          const value = medianOf(kind, name);
          return value === undefined ? [] : [[name, value]];
        }),
      ),
    ]),
  ) as Record<Kind, Partial<Record<RatioName, number>>>;
  // the worst function's: the targets are set for it
  const worstOf = Object.fromEntries(RATIO_NAMES.map((name) => [name, worst(name)])) as Record<
    RatioName,
    number
  >;
  const ratios = { ...perFunction, ...worstOf };
  const results = {
    measuredAt: new Date().toISOString(),
    node: process.versions.node,
    settings,
    functions: figures,
    ratios,
    peakRssMb: Math.max(...kinds.map((kind) => figures[kind].peakRssMb.ours)),
  };

  // how far each ratio moved from the previous run's, to show how far one run can be trusted
  const resultsFile = join(repoRoot, 'bench', 'results.json');
  const previousRun = existsSync(resultsFile)
    ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as {
        measuredAt?: string;
        settings?: unknown;
        ratios?: unknown;
      })
    : undefined;
  // figures measured otherwise say nothing about this run's steadiness
  const previous =
    JSON.stringify(previousRun?.settings) === JSON.stringify(settings) ? previousRun : undefined;
  const moves: { name: string; by: number }[] = [];
  const previousRatios = (previous?.ratios ?? {}) as Record<string, Record<string, number>>;
  for (const kind of kinds) {
    for (const name of RATIO_NAMES) {
      const now = medianOf(kind, name);
      const before = previousRatios[kind]?.[name];
      if (now !== undefined && typeof before === 'number') {
        moves.push({
          name: `${FUNCTIONS[kind]} ${name}`,
          by: Math.round((now - before) * 1000) / 1000,
        });
      }
    }
  }
  writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);

  const cell = (s: Spread | undefined) =>
    s ? `${s.median.toFixed(2)} (${s.q1.toFixed(2)}–${s.q3.toFixed(2)})` : '–';
  const ms = (s: Spread) => s.median.toFixed(s.median >= 10 ? 0 : 2);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out('');
  out(
    '| function | bundle KB | ratio | cold start ms | ratio (IQR) | warm CPU p50 ms | ratio (IQR) | repeat caller (IQR) | with store p50 ms | ratio (IQR) | peak RSS MB |',
  );
  out('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const kind of kinds) {
    const f = figures[kind];
    out(
      `| ${FUNCTIONS[kind]} | ${(f.bundle.ours / 1000).toFixed(0)} / ${(f.bundle.baseline / 1000).toFixed(0)} | ${f.ratios.bundle.toFixed(2)} | ${ms(f.coldStartMs.ours)} / ${ms(f.coldStartMs.baseline)} | ${cell(f.ratios.coldStart)} | ${ms(f.warmCpuP50Ms.ours)} / ${ms(f.warmCpuP50Ms.baseline)} | ${cell(f.ratios.warmCpuP50)} | ${cell(f.ratios.repeatCallerWarmCpuP50)} | ${ms(f.warmStoreP50Ms.ours)} / ${ms(f.warmStoreP50Ms.baseline)} | ${cell(f.ratios.warmStoreP50)} | ${f.peakRssMb.ours.toFixed(0)} / ${f.peakRssMb.baseline.toFixed(0)} |`,
    );
  }
  out(
    `| **worst** | | ${worstOf.bundle.toFixed(2)} | | ${worstOf.coldStart.toFixed(2)} | | ${worstOf.warmCpuP50.toFixed(2)} | ${worstOf.repeatCallerWarmCpuP50.toFixed(2)} | | ${worstOf.warmStoreP50.toFixed(2)} | ${results.peakRssMb.toFixed(0)} |`,
  );
  out('');
  out(
    `Ours / baseline; ratios are medians over runs (interquartile range). Node ${process.versions.node}; ${settings.coldRuns} cold runs, ${settings.warmRuns} warm runs of ${settings.warmInvocations} invocations each (${settings.storeInvocations} with the store); ${elapsed()}. Figures in bench/results.json.`,
  );
  if (moves.length > 0) {
    const largest = moves.reduce((a, b) => (Math.abs(b.by) > Math.abs(a.by) ? b : a));
    const sign = largest.by > 0 ? '+' : '';
    out(
      `Against the previous run (${previous?.measuredAt}): every ratio within ±${Math.abs(largest.by).toFixed(3)}; the largest move ${sign}${largest.by.toFixed(3)} (${largest.name}).`,
    );
  }
} finally {
  stopStubs();
  dynamoClient.destroy();
  receiver?.close();
  await jwks?.stop();
  await dynamo.stop();
  rmSync(work, { recursive: true, force: true });
}
