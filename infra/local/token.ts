// `npm run token`: prints a bearer token that the local run accepts, and nothing else.
//   --sub NAME     the caller (default: local-user)
//   --scope "a b"  space-separated scopes
//   --ttl SECONDS  lifetime (default 3600); negative mints a token that expired that long ago,
//                  counted beyond the server's clock tolerance so that it is rejected at once
import { parseArgs } from 'node:util';
import { CLOCK_TOLERANCE_SECONDS } from '#lib/auth/tokenVerifier.ts';
import { DEFAULT_TOKEN, ensureLocalKeys, mintLocalToken } from './keys.ts';
import { localDataDir } from './paths.ts';

const usage = 'usage: npm run token -- [--sub NAME] [--scope "a b"] [--ttl SECONDS]';

const args = process.argv.slice(2);
const ttlAt = args.indexOf('--ttl');
// parseArgs reads "--ttl -60" as a second option: join a negative value to its flag
if (ttlAt >= 0 && /^-\d+$/.test(args[ttlAt + 1] ?? ''))
  args.splice(ttlAt, 2, `--ttl=${args[ttlAt + 1]}`);

try {
  const { values } = parseArgs({
    args,
    options: {
      sub: { type: 'string', default: DEFAULT_TOKEN.sub },
      scope: { type: 'string' },
      ttl: { type: 'string', default: String(DEFAULT_TOKEN.ttlSeconds) },
    },
  });
  const ttl = Number(values.ttl);
  if (!Number.isInteger(ttl))
    throw new Error(`--ttl must be a whole number of seconds, got "${values.ttl}"`);
  const { sub, scope } = values;
  if (!sub) throw new Error('--sub must not be empty');
  const { privateJwk } = await ensureLocalKeys(localDataDir());
  const ttlSeconds = ttl < 0 ? ttl - CLOCK_TOLERANCE_SECONDS : ttl;
  const token = await mintLocalToken(privateJwk, { sub, scope, ttlSeconds });
  process.stdout.write(`${token}\n`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${usage}\n`);
  process.exit(2);
}
