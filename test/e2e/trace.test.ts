// One change followed through `npm start`: a PATCH's trace id in its request line, the fan-out's
// line and every delivery attempt's line to two endpoints (one failing first), on the terminal cut
// short, and `npm run trace -- <plant id>` printing them in order from the lines npm start keeps
// (an earlier run's moved aside once past their bound).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { KEPT_LOG_BYTES, localLogsPath, repoRoot } from '../../infra/local/paths.ts';
import { arrivals, type Receiver, startReceiver } from '../support/endpointReceiver.ts';
import { type LocalService, sendAs, startLocalService } from '../support/localService.ts';

const run = promisify(execFile);

let service: LocalService;
let token: string;
const receivers: Receiver[] = [];

// an earlier run's lines, past the size a start keeps, one of them of this test's plant
const dataDir = mkdtempSync(join(tmpdir(), 'plant-store-trace-'));
const earlier = JSON.stringify({
  message: 'webhook delivered',
  plantId: 4301,
  timestamp: '2026-01-01T00:00:00.000Z',
  xray_trace_id: '1-00000000-000000000000000000000000',
});
writeFileSync(localLogsPath(dataDir), `${earlier}\n${'\n'.repeat(KEPT_LOG_BYTES)}`);

beforeAll(async () => {
  // a short schedule, so that the retry comes within the test
  service = await startLocalService(dataDir, { WEBHOOK_RETRY_SCHEDULE: '1s,1s' });
  token = (await service.token('--sub', 'carol')).trim();
});
afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  await Promise.all(receivers.map((receiver) => receiver.stop()));
});

/** An endpoint of carol's taking plant.updated, with its receiver. */
const subscribe = async () => {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const body = { url: receiver.url, events: ['plant.updated'] };
  const response = await sendAs(service.baseUrl, token, 'POST', '/webhooks', body);
  expect(response.status).toBe(201);
  return { receiver, id: ((await response.json()) as { id: string }).id };
};

/** The JSON lines npm start kept. */
const keptLines = () =>
  readFileSync(localLogsPath(service.dataDir), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

it("carries a PATCH's trace id to its fan-out and every attempt, and prints them in order", async () => {
  const quick = await subscribe();
  const failingFirst = await subscribe();
  let refused = false;
  failingFirst.receiver.answerWith(() => {
    if (refused) return { status: 204 };
    refused = true;
    return { status: 503 };
  });
  const id = 4301;
  const send = (method: string, path: string, body: unknown) =>
    sendAs(service.baseUrl, token, method, path, body);
  expect((await send('POST', '/plants', { id, name: 'Fern' })).status).toBe(200);
  expect((await send('PATCH', `/plants/${id}`, { name: 'Monstera' })).status).toBe(200);

  expect(await arrivals(quick.receiver, 1)).toHaveLength(1);
  expect(await arrivals(failingFirst.receiver, 2)).toHaveLength(2);

  const lines = keptLines();
  const patch = lines.find(
    ({ route, plantId }) => route === 'PATCH /plants/{id}' && plantId === id,
  );
  const traceId = String(patch?.xray_trace_id);
  expect(traceId).toMatch(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/);
  const ofChange = lines.filter(({ request_trace_id }) => request_trace_id === traceId);
  expect(ofChange.map(({ message, endpointId }) => [message, endpointId ?? '-']).sort()).toEqual(
    [
      ['endpoint attempt failed; it waits for the next', failingFirst.id],
      ['endpoint deliveries queued', '-'],
      ['endpoint delivery delivered', failingFirst.id],
      ['endpoint delivery delivered', quick.id],
    ].sort(),
  );
  // each line is its own invocation's too
  expect(ofChange.every(({ xray_trace_id }) => xray_trace_id !== traceId)).toBe(true);
  // the terminal shows the id cut short on the request's line
  const short = traceId.slice(-8);
  expect(service.output()).toMatch(
    new RegExp(`PATCH /plants/\\{id\\} 200 .* plant=${id} .*trace=${short}`),
  );

  const { stdout } = await run(
    process.execPath,
    [join(repoRoot, 'infra', 'local', 'trace.ts'), String(id)],
    {
      cwd: repoRoot,
      env: { ...process.env, PLANTS_LOCAL_DATA: service.dataDir },
    },
  );
  // the earlier run's lines moved aside at the start, whole
  const movedAside = statSync(`${localLogsPath(dataDir)}.1`).size;
  expect(movedAside).toBe(earlier.length + 1 + KEPT_LOG_BYTES);
  const changes = stdout.split(/^change /m).filter(Boolean);
  expect(changes).toHaveLength(2);
  const [created = '', patched = ''] = changes;
  expect(created).toMatch(/POST \/plants 200 /);
  const [header, ...printed] = patched.trimEnd().split('\n');
  expect(header).toBe(traceId);
  expect(printed).toEqual([
    expect.stringMatching(
      new RegExp(`PATCH /plants/\\{id\\} 200 .* plant=${id} .*trace=${short}$`),
    ),
    expect.stringMatching(
      new RegExp(`endpoint deliveries queued plant=${id} endpoints=2 .*trace=${short}$`),
    ),
    ...Array.from({ length: 3 }, () =>
      expect.stringMatching(new RegExp(`endpoint .*plant=${id} endpoint=ep_.*trace=${short}$`)),
    ),
  ]);
  // the failing endpoint's retry after its failure
  const failing = printed.filter((line) => line.includes(`endpoint=${failingFirst.id}`));
  expect(
    failing.map((line) => /endpoint (attempt failed|delivery delivered)/.exec(line)?.[1]),
  ).toEqual(['attempt failed', 'delivery delivered']);

  // a ping's attempt carries the ping request's trace id
  const ping = await send('POST', `/webhooks/${quick.id}/ping`, undefined);
  expect(ping.status).toBe(202);
  const { webhookId } = (await ping.json()) as { webhookId: string };
  // its line is written after the receiver's answer (and the ping's request line before it)
  const delivered = await vi.waitFor(
    () => {
      const line = keptLines().find(
        (line) => line.message === 'endpoint delivery delivered' && line.webhookId === webhookId,
      );
      if (!line) throw new Error(`no delivered line for ${webhookId} in the kept lines yet`);
      return line;
    },
    { timeout: 15_000, interval: 200 },
  );
  const pinged = keptLines().find(({ route }) => route === 'POST /webhooks/{id}/ping');
  expect(delivered.request_trace_id).toBe(pinged?.xray_trace_id);
  expect(delivered.request_trace_id).toMatch(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/);
});
