// The bench's callers (bench/probe.mjs): each function a probe process loads counts through the
// minted tokens on its own, so that no new caller's token meets a function's token cache a second
// time, whatever else shares the process; a probe with too few tokens stops instead of reusing one;
// a repeat caller presents the first throughout. Each invocation has its own trace header.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { functionEnv } from '../../bench/measure.ts';
import { repoRoot } from '../../infra/local/paths.ts';

const execute = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'bench-tokens-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A bundle that answers 200 and writes down each Authorization header and trace header it sees. */
const recordingBundle = (name: string) => {
  const file = join(work, `${name}.mjs`);
  const seen = join(work, `${name}.seen`);
  writeFileSync(seen, '');
  writeFileSync(
    file,
    `import { appendFileSync } from 'node:fs';
export const handler = async (event) => {
  const trace = process.env._X_AMZN_TRACE_ID;
  appendFileSync(${JSON.stringify(seen)}, event.headers.authorization + ' ' + trace + '\\n');
  return { statusCode: 200, body: '{}' };
};`,
  );
  const lines = () => readFileSync(seen, 'utf8').trim().split('\n');
  return {
    file,
    seen: () => lines().map((line) => line.split(' ').slice(0, 2).join(' ')),
    traceHeaders: () => lines().map((line) => line.split(' ')[2]),
  };
};

/** Runs a warm probe of getPlant: `warmUp` + `n` invocations of each bundle, given `tokens`. */
const warmProbe = (tokens: string[], bundles: string[], warmUp: number, n: number, more = {}) => {
  const tokensFile = join(work, 'tokens.txt');
  writeFileSync(tokensFile, tokens.join('\n'));
  const env = {
    ...functionEnv(work, 'http://127.0.0.1:9/jwks', tokensFile),
    BENCH_WARM_UP: String(warmUp),
    BENCH_FIRST_ID: '1000',
    BENCH_SECOND_FIRST_ID: '2000',
    ...more,
  };
  const args = [join(repoRoot, 'bench', 'probe.mjs'), 'warm', 'getPlant', String(n), ...bundles];
  return execute(process.execPath, args, { env });
};

describe('bench/probe.mjs: the tokens of new callers', () => {
  it('gives each function it loads the tokens in order, none twice', async () => {
    const tokens = Array.from({ length: 6 }, (_, i) => `token-${i}`);
    const bundles = ['a', 'b', 'c'].map(recordingBundle);
    const files = bundles.map(({ file }) => file);
    await warmProbe(tokens, files, 2, 4);

    for (const bundle of bundles) expect(bundle.seen()).toEqual(tokens.map((t) => `Bearer ${t}`));
    // Lambda's form, unsampled, none the same (lib/telemetry.ts reads its Root as the trace id)
    const headers = bundles.flatMap((bundle) => bundle.traceHeaders());
    for (const header of headers)
      expect(header).toMatch(/^Root=1-[0-9a-f]{8}-[0-9a-f]{24};Parent=[0-9a-f]{16};Sampled=0$/);
    expect(new Set(headers).size).toBe(18);
  });

  it("presents a repeat caller's one token throughout", async () => {
    const bundle = recordingBundle('repeat');
    await warmProbe(['token-0'], [bundle.file], 2, 3, { BENCH_REPEAT_CALLER: '1' });

    expect(bundle.seen()).toEqual(Array(5).fill('Bearer token-0'));
  });

  it('stops, saying so, when a function would need more tokens than were minted', async () => {
    const bundle = recordingBundle('short');
    const run = warmProbe(['token-0', 'token-1'], [bundle.file], 1, 2);

    await expect(run).rejects.toThrow(/getPlant's call 3, 2 tokens: mint more/);
    expect(bundle.seen()).toEqual(['Bearer token-0', 'Bearer token-1']);
  });
});
