// `npm run trace -- <plant id>`: one plant's changes in order from npm start's kept lines, each the
// lines of its writing request's trace id (request_trace_id), as the terminal shows them.
import { existsSync, readFileSync } from 'node:fs';
import { localDataDir, localLogsPath } from './paths.ts';
import { logLineOf, terminalLine } from './terminal.ts';

type Line = { text: string; traceId: string; at: string };

/** The plant's changes, each its lines in time order, the earliest change first; reads left out. */
const changesOf = (logs: string, plantId: number): Line[][] => {
  const changes = new Map<string, Line[]>();
  for (const text of logs.split('\n')) {
    const log = logLineOf(text) ?? {};
    const read = typeof log.route === 'string' && log.route.startsWith('GET ');
    if (log.plantId !== plantId || typeof log.message !== 'string' || read) continue;
    const traceId = String(log.request_trace_id ?? log.xray_trace_id);
    const line = { text, traceId, at: String(log.timestamp) };
    changes.set(traceId, [...(changes.get(traceId) ?? []), line]);
  }
  const inOrder = (lines: Line[]) => lines.toSorted((a, b) => a.at.localeCompare(b.at));
  return [...changes.values()]
    .map(inOrder)
    .toSorted((a, b) => (a[0]?.at ?? '').localeCompare(b[0]?.at ?? ''));
};

const plantId = Number(process.argv[2]);
const logs = localLogsPath(localDataDir());
if (!Number.isSafeInteger(plantId)) {
  process.stderr.write('usage: npm run trace -- <plant id>\n');
  process.exit(2);
}
if (!existsSync(logs)) {
  process.stderr.write(`npm run trace: no ${logs}: npm start keeps its lines there\n`);
  process.exit(1);
}
for (const change of changesOf(readFileSync(logs, 'utf8'), plantId)) {
  process.stdout.write(`change ${change[0]?.traceId}\n`);
  for (const { text } of change) process.stdout.write(`  ${terminalLine(text)}\n`);
}
