// What `npm start` shows of serverless-offline's output (infra/local/terminal.ts), on lines as
// serverless-offline and the functions write them.
import { describe, expect, it } from 'vitest';
import { unmatchedRouteHandler } from '#lib/routes/unmatchedRoute.ts';
import { terminalLine } from '../../infra/local/terminal.ts';
import { httpApiEvent, invokeHandler } from '../support/events.ts';
import { recordTelemetry } from '../support/telemetry.ts';

const request = JSON.stringify({
  level: 'INFO',
  message: 'request',
  timestamp: '2026-11-23T17:48:00.947Z',
  service: 'plant-store',
  cold_start: false,
  function_name: 'plant-store-local-createPlant',
  function_request_id: '2b2199b4-6d23-4517-90a7-41818140296b',
  route: 'POST /plants',
  status: 200,
  latencyMs: 134.7,
  plantId: 1,
  callerSub: 'local-user',
  outcome: 'created',
});
const refused = JSON.stringify({
  level: 'INFO',
  message: 'request refused',
  timestamp: '2026-11-23T17:48:02.000Z',
  route: 'POST /plants',
  status: 400,
  latencyMs: 2.2,
  callerSub: 'local-user',
  reason: 'name is required: a string',
});
const failed = JSON.stringify({
  level: 'ERROR',
  message: 'request failed',
  timestamp: '2026-11-23T17:48:03.000Z',
  route: 'GET /plants/{id}',
  status: 500,
  latencyMs: 4,
  error: { name: 'Error', message: 'disk on fire', stack: 'Error: disk on fire\n    at ...' },
});
const webhookWaits = JSON.stringify({
  level: 'WARN',
  message: 'webhook attempt failed; it waits for the next',
  timestamp: '2026-11-23T17:48:04.000Z',
  webhookId: 'msg_a',
  plantId: 1,
  attempt: 1,
  reason: 'answered 503',
  nextAttemptAt: '2026-11-23T17:48:09.000Z',
});
const emf = JSON.stringify({
  _aws: { Timestamp: 1, CloudWatchMetrics: [{ Namespace: 'PlantStore', Metrics: [] }] },
  PlantsCreated: 1,
});
const TIME = '\\d\\d:\\d\\d:\\d\\d';

describe('the npm start terminal', () => {
  it('shows one line per request, from the function’s own log line', () => {
    expect(terminalLine(request)).toMatch(
      new RegExp(`^${TIME} POST /plants 200 135 ms created plant=1 caller=local-user$`),
    );
    expect(terminalLine(refused)).toMatch(
      new RegExp(`^${TIME} POST /plants 400 2 ms caller=local-user — name is required: a string$`),
    );
  });

  it('names a request to an unknown path by its method and path, not by its route', async () => {
    const telemetry = recordTelemetry();
    const handler = unmatchedRouteHandler(telemetry);
    for (const [method, path] of [
      ['GET', '/plant'],
      ['PATCH', '/plants/7'],
    ] as const) {
      await invokeHandler(handler, httpApiEvent({ method, path, route: '$default' }));
    }
    const lines = telemetry.documents().map((document) => terminalLine(JSON.stringify(document)));

    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(`^${TIME} GET /plant 404 \\d+ ms trace=[0-9a-f]{8} — There is no /plant: `),
      ),
      expect.stringMatching(
        new RegExp(
          `^${TIME} PATCH /plants/7 405 \\d+ ms trace=[0-9a-f]{8} — PATCH is not allowed here: `,
        ),
      ),
    ]);
  });

  it("shows a change's trace id short on its request's line and on its deliveries' lines", () => {
    const traceId = '1-6a1b2c3d-0123456789abcdef89abcdef';
    const patched = { ...JSON.parse(request), route: 'PATCH /plants/{id}', xray_trace_id: traceId };
    const attempt = {
      level: 'INFO',
      message: 'endpoint delivery delivered',
      timestamp: '2026-11-23T17:48:05.000Z',
      xray_trace_id: '1-6a1b2c3e-ffffffffffffffffffffffff',
      request_trace_id: traceId,
      endpointId: 'ep_1',
      webhookId: 'msg_b',
      plantId: 1,
      attempt: 2,
      status: 204,
    };

    expect(terminalLine(JSON.stringify(patched))).toMatch(
      / plant=1 caller=local-user trace=89abcdef$/,
    );
    expect(terminalLine(JSON.stringify(attempt))).toMatch(
      new RegExp(
        `^${TIME} endpoint delivery delivered plant=1 endpoint=ep_1 attempt=2 status=204 id=msg_b trace=89abcdef$`,
      ),
    );
  });

  it('marks warnings and errors, in color on a terminal', () => {
    const [line, ...stack] = (terminalLine(failed) ?? '').split('\n');
    expect(line).toMatch(
      new RegExp(`^ERROR ${TIME} GET /plants/\\{id\\} 500 4 ms — disk on fire$`),
    );
    // a fault of ours shows where it happened
    expect(stack).toEqual(['    Error: disk on fire', '    at ...']);
    expect(terminalLine(webhookWaits)).toMatch(
      new RegExp(
        `^WARN ${TIME} webhook attempt failed; it waits for the next plant=1 attempt=1 reason=answered 503 next=2026-11-23T17:48:09.000Z id=msg_a$`,
      ),
    );
    const [colored = ''] = (terminalLine(failed, { color: true }) ?? '').split('\n');
    expect(colored.startsWith('\u001b[31mERROR ')).toBe(true);
    expect(colored.endsWith('\u001b[0m')).toBe(true);
  });

  it("leaves out serverless-offline's banner, its per-invocation lines and the metrics", () => {
    for (const line of [
      'Starting Offline at stage local (us-east-1)',
      'Offline [http for lambda] listening on http://127.0.0.1:3002',
      'Function names exposed for local invocation by aws-sdk:',
      '   * createPlant: plant-store-local-createPlant',
      '┌──────────────────────────────────────────────────────────────────────────────┐',
      '│   POST   | http://127.0.0.1:3000/plants                                      │',
      'Server ready: http://127.0.0.1:3000 🚀',
      'POST /plants (λ: createPlant)',
      '(λ: createPlant) RequestId: 2b2199b4  Duration: 179.42 ms  Billed Duration: 180 ms',
      '',
      emf,
    ]) {
      expect(terminalLine(line), line).toBeUndefined();
    }
  });

  it('shows the JSON lines as deployed with --json, and anything it does not know as it is', () => {
    expect(terminalLine(request, { json: true })).toBe(request);
    expect(terminalLine(emf, { json: true })).toBe(emf);
    expect(terminalLine('✘ [ERROR] Could not resolve "zod"')).toBe(
      '✘ [ERROR] Could not resolve "zod"',
    );
  });
});
