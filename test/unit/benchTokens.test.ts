// The bench's new callers (bench/probe.mjs): each function a probe process loads is given its own
// sequence of the minted tokens, so that no token meets a function's token cache a second time,
// whatever else shares the process; a probe with too few tokens stops instead of reusing one.
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

/** A bundle that answers 200 and writes down each Authorization header it is sent. */
const recordingBundle = (name: string) => {
  const file = join(work, `${name}.mjs`);
  const seen = join(work, `${name}.seen`);
  writeFileSync(seen, '');
  writeFileSync(
    file,
    `import { appendFileSync } from 'node:fs';
export const handler = async (event) => {
  appendFileSync(${JSON.stringify(seen)}, event.headers.authorization + '\\n');
  return { statusCode: 200, body: '{}' };
};`,
  );
  return { file, seen: () => readFileSync(seen, 'utf8').trim().split('\n') };
};

/** Runs a warm probe of getPlant: `warmUp` + `n` invocations of each bundle, given `tokens`. */
const warmProbe = (tokens: string[], bundles: string[], warmUp: number, n: number) => {
  const tokensFile = join(work, 'tokens.txt');
  writeFileSync(tokensFile, tokens.join('\n'));
  const env = {
    ...functionEnv(work, 'http://127.0.0.1:9/jwks', tokensFile),
    BENCH_WARM_UP: String(warmUp),
    BENCH_FIRST_ID: '1000',
    BENCH_SECOND_FIRST_ID: '2000',
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
  });

  it('stops, saying so, when a function would need more tokens than were minted', async () => {
    const bundle = recordingBundle('short');
    const run = warmProbe(['token-0', 'token-1'], [bundle.file], 1, 2);

    await expect(run).rejects.toThrow(/2 tokens, fewer than invocations/);
    expect(bundle.seen()).toEqual(['Bearer token-0', 'Bearer token-1']);
  });
});
