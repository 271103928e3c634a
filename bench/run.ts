// `npm run bench`: the shipped handler against the bare baseline (bench/baseline), measured side
// by side in one run, alternating, several repetitions each. Prints a table of medians and
// ratios (ours/baseline) and writes the same figures to bench/results.json.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { importJWK, SignJWT } from 'jose';
import { localDynamoClient } from '../infra/local/dynamoClient.ts';
import { startDynamoDbLocal } from '../infra/local/dynamodbLocal.ts';
import { freePort } from '../infra/local/freePort.ts';
import { type JwksServer, startJwksServer } from '../infra/local/jwksServer.ts';
import {
  ensureLocalKeys,
  LOCAL_AUDIENCE,
  LOCAL_ISSUER,
  mintLocalToken,
} from '../infra/local/keys.ts';
import { repoRoot } from '../infra/local/paths.ts';
import { ensurePlantsTable } from '../infra/local/plantsTable.ts';
import { buildHandlers, type Subject } from './build.ts';
import { measureHttp } from './http.ts';
import { FUNCTIONS, type FunctionKind, measureFunctions } from './perFunction.ts';

const run = promisify(execFile);
/**
 * V8's heap held to what fits a 128 MB Lambda function (Lambda's smallest size). Left alone, V8
 * sizes its heap from this machine's memory and collects lazily, which measures the machine.
 */
const HEAP_OF_A_128_MB_FUNCTION = ['--max-old-space-size=64', '--max-semi-space-size=2'];
const subjects: Subject[] = ['ours', 'baseline'];
const settings = {
  coldRuns: Number(process.env.BENCH_COLD_RUNS ?? 7),
  warmRuns: Number(process.env.BENCH_WARM_RUNS ?? 3),
  stubInvocations: Number(process.env.BENCH_STUB_INVOCATIONS ?? 2000),
  storeInvocations: Number(process.env.BENCH_STORE_INVOCATIONS ?? 1000),
  httpRequests: Number(process.env.BENCH_HTTP_REQUESTS ?? 1000),
  functionColdRuns: Number(process.env.BENCH_FUNCTION_COLD_RUNS ?? 7),
  functionWarmRuns: Number(process.env.BENCH_FUNCTION_WARM_RUNS ?? 3),
  functionInvocations: Number(process.env.BENCH_FUNCTION_INVOCATIONS ?? 500),
};

interface ColdFigures {
  importMs: number;
  firstResponseMs: number;
  sinceProcessStartMs: number;
  peakRssMb: number;
}
interface WarmFigures {
  p50Ms: number;
  p99Ms: number;
  perSecond: number;
  cpuMsPerInvocation: number;
  peakRssMb: number;
}
type Pair<Figures> = Record<Subject, Figures>;

const say = (line: string) => process.stderr.write(`${line}\n`);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
/** The median of each figure over the runs. */
const medians = <Figures extends object>(runs: Figures[]): Figures => {
  const keys = Object.keys(runs[0] ?? {}) as (keyof Figures)[];
  return Object.fromEntries(
    keys.map((key) => [key, median(runs.map((r) => Number(r[key])))]),
  ) as Figures;
};
const ratio = (ours: number, baseline: number) => Math.round((ours / baseline) * 1000) / 1000;

const work = mkdtempSync(join(tmpdir(), 'plant-store-bench-'));
let jwks: JwksServer | undefined;
say('Starting DynamoDB Local (in memory)...');
const dynamo = await startDynamoDbLocal({ port: await freePort() });
try {
  say('Building both handlers with the deploy settings (serverless.yml custom.esbuild)...');
  const bundles = await buildHandlers(join(work, 'build'));
  const sizeOf = (subject: Subject) => {
    const bytes = readFileSync(bundles[subject]);
    return { bytes: bytes.length, gzipBytes: gzipSync(bytes).length };
  };
  const bundle: Pair<{ bytes: number; gzipBytes: number }> = {
    ours: sizeOf('ours'),
    baseline: sizeOf('baseline'),
  };

  const table = 'plants-bench';
  const client = localDynamoClient(dynamo.endpoint);
  await ensurePlantsTable(client, table);
  client.destroy();
  const keys = await ensureLocalKeys(work);
  const token = await mintLocalToken(keys.privateJwk, { sub: 'bench', ttlSeconds: 3600 });
  // a new caller per invocation: every token verified in full, by ours as by the baseline
  const tokensFile = join(work, 'tokens.txt');
  const tokenCount = Math.max(settings.stubInvocations, settings.storeInvocations) + 50;
  say(`Minting ${tokenCount} tokens, one per invocation...`);
  // one caller's many tokens (the stubbed plants are its own), each distinct by its jti
  const signingKey = await importJWK(keys.privateJwk, 'ES256');
  const tokens: string[] = [];
  for (let i = 0; i < tokenCount; i++) {
    tokens.push(
      await new SignJWT({ jti: `bench-${i}` })
        .setProtectedHeader({ alg: 'ES256', kid: String(keys.privateJwk.kid), typ: 'JWT' })
        .setIssuer(LOCAL_ISSUER)
        .setAudience(LOCAL_AUDIENCE)
        .setSubject('bench')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(signingKey),
    );
  }
  writeFileSync(tokensFile, tokens.join('\n'));
  // keys from a JWKS URL, as every deployed stage has them: each cold start fetches them once
  jwks = await startJwksServer(JSON.parse(readFileSync(keys.jwksPath, 'utf8')));
  // what Lambda would give the function, pointed at the local stack
  const env = {
    PATH: process.env.PATH,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    PLANTS_TABLE: table,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    AUTH_ISSUER: LOCAL_ISSUER,
    AUTH_AUDIENCE: LOCAL_AUDIENCE,
    AUTH_JWKS_URL: jwks.url,
  };

  let firstId = 1;
  const probe = async <Figures>(
    subject: Subject,
    args: string[],
    nodeFlags: string[] = [],
    { newTokens = true }: { newTokens?: boolean } = {},
  ): Promise<Figures> => {
    const result = join(work, 'probe.json');
    firstId += 1_000_000;
    await run(
      process.execPath,
      [...nodeFlags, join(repoRoot, 'bench', 'probe.mjs'), bundles[subject], ...args, token],
      {
        env: {
          ...env,
          BENCH_FIRST_ID: String(firstId),
          BENCH_RESULT_FILE: result,
          ...(newTokens ? { BENCH_TOKENS_FILE: tokensFile } : {}),
        },
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    return JSON.parse(readFileSync(result, 'utf8')) as Figures;
  };
  const alternate = async <Figures extends object>(
    label: string,
    runs: number,
    measure: (subject: Subject) => Promise<Figures>,
  ): Promise<Pair<Figures>> => {
    const figures: Pair<Figures[]> = { ours: [], baseline: [] };
    for (let i = 0; i < runs; i++) {
      for (const subject of i % 2 ? [...subjects].reverse() : subjects) {
        figures[subject].push(await measure(subject));
      }
      say(`  ${label}: ${i + 1}/${runs}`);
    }
    return { ours: medians(figures.ours), baseline: medians(figures.baseline) };
  };

  say(`Cold start: a fresh process per run, ${settings.coldRuns} runs each...`);
  const cold = await alternate('cold start', settings.coldRuns, (s) =>
    probe<ColdFigures>(s, ['cold', '1', '']),
  );
  say(
    `Warm, CPU only (DynamoDB stubbed in process): ${settings.stubInvocations} invocations x ${settings.warmRuns} runs each...`,
  );
  const warmCpu = await alternate('warm, CPU only', settings.warmRuns, (s) =>
    probe<WarmFigures>(s, ['warm', String(settings.stubInvocations), 'stub']),
  );
  say(
    `Warm, CPU only, one repeat caller (its token verified once by ours, every time by the baseline): ${settings.stubInvocations} invocations x ${settings.warmRuns} runs each...`,
  );
  const repeatCaller = await alternate('warm, CPU only, repeat caller', settings.warmRuns, (s) =>
    probe<WarmFigures>(s, ['warm', String(settings.stubInvocations), 'stub'], [], {
      newTokens: false,
    }),
  );
  say(
    `Warm, with DynamoDB Local: ${settings.storeInvocations} invocations x ${settings.warmRuns} runs each...`,
  );
  // DynamoDB Local's JVM is still warming up: a discarded run first, so neither side gets it cold
  await probe<WarmFigures>('baseline', ['warm', String(settings.storeInvocations), '']);
  const warmStore = await alternate('warm, with the store', settings.warmRuns, (s) =>
    probe<WarmFigures>(s, ['warm', String(settings.storeInvocations), '']),
  );
  say('Memory: warm with DynamoDB Local, the V8 heap held to a 128 MB function...');
  const capped = await alternate('heap of a 128 MB function', settings.warmRuns, (s) =>
    probe<WarmFigures>(
      s,
      ['warm', String(settings.storeInvocations), ''],
      HEAP_OF_A_128_MB_FUNCTION,
    ),
  );
  const functions = await measureFunctions({
    work,
    // the webhook function's settings besides: its receiver is a stub in the probe's process
    env: {
      ...env,
      WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
      WEBHOOK_DEAD_LETTER_DIR: join(work, 'dead-letters'),
    },
    tokensFile,
    coldRuns: settings.functionColdRuns,
    warmRuns: settings.functionWarmRuns,
    invocations: settings.functionInvocations,
    say,
  });
  say(`HTTP through serverless-offline: ${settings.httpRequests} requests each...`);
  const http = await measureHttp({ requests: settings.httpRequests, env, token, progress: say });

  const ratios = {
    bundle: ratio(bundle.ours.bytes, bundle.baseline.bytes),
    bundleGzip: ratio(bundle.ours.gzipBytes, bundle.baseline.gzipBytes),
    coldStart: ratio(cold.ours.firstResponseMs, cold.baseline.firstResponseMs),
    coldImport: ratio(cold.ours.importMs, cold.baseline.importMs),
    warmCpuP50: ratio(warmCpu.ours.p50Ms, warmCpu.baseline.p50Ms),
    warmCpuP99: ratio(warmCpu.ours.p99Ms, warmCpu.baseline.p99Ms),
    repeatCallerWarmCpuP50: ratio(repeatCaller.ours.p50Ms, repeatCaller.baseline.p50Ms),
    warmStoreP50: ratio(warmStore.ours.p50Ms, warmStore.baseline.p50Ms),
    httpThroughput: ratio(http.ours.perSecond, http.baseline.perSecond),
    httpP99: ratio(http.ours.p99Ms, http.baseline.p99Ms),
  };
  const kinds = Object.keys(FUNCTIONS) as FunctionKind[];
  const worst = (pick: (figures: (typeof functions)[FunctionKind]) => number) =>
    Math.max(...kinds.map((kind) => pick(functions[kind])));
  const functionRatios = Object.fromEntries(
    kinds.map((kind) => [
      kind,
      {
        bundle: functions[kind].ratios.bundle,
        coldStart: functions[kind].ratios.coldStart.median,
        warmCpuP50: functions[kind].ratios.warmCpuP50.median,
      },
    ]),
  );
  const results = {
    measuredAt: new Date().toISOString(),
    node: process.versions.node,
    settings,
    bundle,
    coldStart: cold,
    warmCpu,
    repeatCaller,
    warmStore,
    http,
    // one handler instance per process, as in Lambda, with the heap a 128 MB function has; an
    // uncapped V8 grows its heap lazily and says little about the memory the function needs
    peakRssMb: capped.ours.peakRssMb,
    uncappedPeakRssMb: Math.max(
      cold.ours.peakRssMb,
      warmCpu.ours.peakRssMb,
      warmStore.ours.peakRssMb,
    ),
    capped,
    functions,
    ratios: {
      ...ratios,
      ...functionRatios,
      // the worst function's, as the targets are set for it
      worst: {
        bundle: worst((f) => f.ratios.bundle),
        coldStart: worst((f) => f.ratios.coldStart.median),
        warmCpuP50: worst((f) => f.ratios.warmCpuP50.median),
      },
    },
  };
  writeFileSync(join(repoRoot, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);

  const rows: [string, number, number][] = [
    ['bundle, bytes', bundle.ours.bytes, bundle.baseline.bytes],
    ['bundle, gzip bytes', bundle.ours.gzipBytes, bundle.baseline.gzipBytes],
    ['cold start: import, ms', cold.ours.importMs, cold.baseline.importMs],
    ['cold start: first response, ms', cold.ours.firstResponseMs, cold.baseline.firstResponseMs],
    ['cold start: peak RSS, MB', cold.ours.peakRssMb, cold.baseline.peakRssMb],
    ['warm, CPU only: p50, ms', warmCpu.ours.p50Ms, warmCpu.baseline.p50Ms],
    ['warm, CPU only: p99, ms', warmCpu.ours.p99Ms, warmCpu.baseline.p99Ms],
    ['warm, CPU only: invocations/s', warmCpu.ours.perSecond, warmCpu.baseline.perSecond],
    [
      'warm, CPU only: CPU ms/invocation',
      warmCpu.ours.cpuMsPerInvocation,
      warmCpu.baseline.cpuMsPerInvocation,
    ],
    [
      'warm, CPU only, repeat caller: p50, ms',
      repeatCaller.ours.p50Ms,
      repeatCaller.baseline.p50Ms,
    ],
    [
      'warm, CPU only, repeat caller: CPU ms/invocation',
      repeatCaller.ours.cpuMsPerInvocation,
      repeatCaller.baseline.cpuMsPerInvocation,
    ],
    ['warm, with store: p50, ms', warmStore.ours.p50Ms, warmStore.baseline.p50Ms],
    ['warm, with store: p99, ms', warmStore.ours.p99Ms, warmStore.baseline.p99Ms],
    ['warm, with store: peak RSS, MB', warmStore.ours.peakRssMb, warmStore.baseline.peakRssMb],
    ['heap of a 128 MB function: peak RSS, MB', capped.ours.peakRssMb, capped.baseline.peakRssMb],
    ['heap of a 128 MB function: p50, ms', capped.ours.p50Ms, capped.baseline.p50Ms],
    ['HTTP (offline): requests/s', http.ours.perSecond, http.baseline.perSecond],
    ['HTTP (offline): p99, ms', http.ours.p99Ms, http.baseline.p99Ms],
  ];
  const fmt = (n: number) => (n >= 1000 ? n.toFixed(0) : n.toFixed(2));
  process.stdout.write('\n| measure | ours | baseline | ours/baseline |\n|---|---:|---:|---:|\n');
  for (const [name, ours, baseline] of rows) {
    process.stdout.write(
      `| ${name} | ${fmt(ours)} | ${fmt(baseline)} | ${ratio(ours, baseline).toFixed(2)} |\n`,
    );
  }
  process.stdout.write(
    '\n| function | bundle | cold start (IQR) | warm CPU p50 (IQR) |\n|---|---:|---:|---:|\n',
  );
  for (const kind of kinds) {
    const { bundle: b, coldStart: c, warmCpuP50: w } = functions[kind].ratios;
    process.stdout.write(
      `| ${FUNCTIONS[kind]} | ${b.toFixed(2)} | ${c.median.toFixed(2)} (${c.q1.toFixed(2)}–${c.q3.toFixed(2)}) | ${w.median.toFixed(2)} (${w.q1.toFixed(2)}–${w.q3.toFixed(2)}) |\n`,
    );
  }
  process.stdout.write(
    `\nMedians. Node ${process.versions.node}. serverless-offline process peak RSS ${fmt(http.offlineProcessPeakRssMb)} MB (both handlers and serverless itself). Figures in bench/results.json.\n`,
  );
} finally {
  await jwks?.stop();
  await dynamo.stop();
  rmSync(work, { recursive: true, force: true });
}
