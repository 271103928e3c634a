// The HTTP part of the bench: both handlers behind serverless-offline (serverless.bench.yml),
// driven with the same bounded concurrency, in alternating blocks.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../infra/local/freePort.ts';
import { repoRoot } from '../infra/local/paths.ts';
import type { Subject } from './build.ts';

const CONCURRENCY = 16;
const BLOCKS = 4;

export interface HttpOptions {
  requests: number;
  env: NodeJS.ProcessEnv;
  token: string;
  progress: (line: string) => void;
}

/** The highest resident set the process has had, from Linux's /proc (0 elsewhere). */
const peakRssMb = (pid: number) => {
  try {
    const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) / 1024;
  } catch {
    return 0;
  }
};

export const measureHttp = async ({ requests, env, token, progress }: HttpOptions) => {
  const [httpPort, lambdaPort] = [await freePort(), await freePort()];
  const serverless = join(repoRoot, 'node_modules', 'osls', 'bin', 'serverless.js');
  const offline = spawn(
    process.execPath,
    [
      serverless,
      'offline',
      'start',
      '--config',
      'serverless.bench.yml',
      '--httpPort',
      String(httpPort),
      '--lambdaPort',
      String(lambdaPort),
    ],
    {
      cwd: repoRoot,
      env: { ...env, SLS_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let output = '';
  offline.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  try {
    const deadline = Date.now() + 120_000;
    while (!output.includes('Server ready')) {
      if (offline.exitCode !== null || Date.now() > deadline)
        throw new Error(`serverless-offline did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }

    let nextId = 50_000_000;
    const post = async (subject: Subject) => {
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${httpPort}/${subject}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: nextId++, name: 'Monstera', tag: 'indoor' }),
      });
      await response.text();
      if (response.status !== 200) throw new Error(`${subject} answered ${response.status}`);
      return performance.now() - started;
    };
    const block = async (subject: Subject, count: number) => {
      const latencies: number[] = [];
      let sent = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (sent < count) {
            sent += 1;
            latencies.push(await post(subject));
          }
        }),
      );
      return { latencies, elapsedMs: performance.now() - started };
    };

    // each handler loaded and warm before anything counts
    for (const subject of ['ours', 'baseline'] as const) await block(subject, 50);
    const all: Record<Subject, { latencies: number[]; elapsedMs: number }> = {
      ours: { latencies: [], elapsedMs: 0 },
      baseline: { latencies: [], elapsedMs: 0 },
    };
    for (let i = 0; i < BLOCKS; i++) {
      const order: Subject[] = i % 2 ? ['baseline', 'ours'] : ['ours', 'baseline'];
      for (const subject of order) {
        const { latencies, elapsedMs } = await block(subject, Math.ceil(requests / BLOCKS));
        all[subject].latencies.push(...latencies);
        all[subject].elapsedMs += elapsedMs;
      }
      progress(`  HTTP: ${i + 1}/${BLOCKS}`);
    }
    const figures = (subject: Subject) => {
      const sorted = [...all[subject].latencies].sort((a, b) => a - b);
      const at = (q: number) =>
        sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
      return {
        perSecond: (sorted.length / all[subject].elapsedMs) * 1000,
        p50Ms: at(0.5),
        p99Ms: at(0.99),
      };
    };
    return {
      concurrency: CONCURRENCY,
      ours: figures('ours'),
      baseline: figures('baseline'),
      // serverless-offline runs both handlers in this one process (useInProcess), with itself
      offlineProcessPeakRssMb: peakRssMb(offline.pid ?? 0),
    };
  } finally {
    if (offline.exitCode === null && offline.signalCode === null) {
      const exited = new Promise((r) => offline.once('exit', r));
      offline.kill('SIGTERM');
      await exited;
    }
  }
};
