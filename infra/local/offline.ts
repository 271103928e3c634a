// serverless-offline for `npm start`: the bundled functions behind the front server, their JSON log
// lines shown by terminal.ts and appended whole to `logs` (npm run trace reads them).
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, renameSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { untilListening } from './freePort.ts';
import { repoRoot, serverlessCli } from './paths.ts';
import { terminalLine } from './terminal.ts';

/** The most bytes of kept log lines npm start starts with (npm run trace reads them). */
export const KEPT_LOG_BYTES = 64 * 2 ** 20;

export const spawnOffline = (
  ports: { api: number; lambda: number },
  env: Record<string, string>,
  logs: string,
) => {
  // kept across runs; past this size before the start, moved aside to logs.jsonl.1 (one older file at most)
  if ((statSync(logs, { throwIfNoEntry: false })?.size ?? 0) > KEPT_LOG_BYTES) {
    renameSync(logs, `${logs}.1`);
  }
  const offline = spawn(
    process.execPath,
    [serverlessCli, 'offline', 'start', '--stage', 'local', '--httpPort', String(ports.api)].concat(
      ['--lambdaPort', String(ports.lambda)],
    ),
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env, SLS_TELEMETRY_DISABLED: '1' },
    },
  );
  const json = process.argv.includes('--json');
  const kept = createWriteStream(logs, { flags: 'a' });
  const relay = (input: NodeJS.ReadableStream, output: NodeJS.WriteStream) =>
    createInterface({ input }).on('line', (line) => {
      if (line.startsWith('{')) kept.write(`${line}\n`);
      const shown = terminalLine(line, { json, color: output.isTTY === true });
      if (shown !== undefined) output.write(`${shown}\n`);
    });
  relay(offline.stdout as NodeJS.ReadableStream, process.stdout);
  relay(offline.stderr as NodeJS.ReadableStream, process.stderr);
  return offline;
};

// once serverless-offline serves (it bundles first): PORT opens only then, for whoever waits for it
export const untilOfflineServes = async (offline: ChildProcess, ports: number[]) => {
  for (const port of ports) {
    await untilListening({
      name: 'serverless-offline',
      child: offline,
      port,
      timeoutMs: 300_000,
      output: () => 'its output is above',
    });
  }
};
