// `npm run trace -- <plant id>`: one plant's changes in order from npm start's kept lines, each the
// lines of its writing request's trace id (request_trace_id), as the terminal shows them.
import { existsSync, readFileSync } from 'node:fs';
import { localDataDir, localLogsPath } from './paths.ts';
import { logLineOf, terminalLine } from './terminal.ts';

/** The plant's changes, each its lines in time order, the earliest change first; reads left out. */
const changesOf = (logs: string, plantId: number) => {
  const lines = logs.split('\n').flatMap((text) => {
    const log = logLineOf(text) ?? {};
    const read = typeof log.route === 'string' && log.route.startsWith('GET ');
    if (log.plantId !== plantId || typeof log.message !== 'string' || read) return [];
    const traceId = String(log.request_trace_id ?? log.xray_trace_id);
    return [{ text, traceId, at: String(log.timestamp) }];
  });
  // grouped in time order: each change in the order of its first line
  const inTime = lines.toSorted((a, b) => a.at.localeCompare(b.at));
  return [...Map.groupBy(inTime, (line) => line.traceId).values()];
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
