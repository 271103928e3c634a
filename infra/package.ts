// `npm run package [-- --stage NAME]`: the deployment package and CloudFormation template in
// .serverless/, with no AWS credentials and no network. Auth settings come from AUTH_ISSUER and
// AUTH_AUDIENCE (AUTH_JWKS_URL, AUTH_REQUIRED_SCOPE optional); placeholders stand in when unset,
// which is fine for reviewing the template but not for deploying it.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './local/paths.ts';

const placeholders: Record<string, [param: string, fallback: string]> = {
  AUTH_ISSUER: ['authIssuer', 'https://issuer.example.invalid/'],
  AUTH_AUDIENCE: ['authAudience', 'plant-store'],
  AUTH_JWKS_URL: ['authJwksUrl', ''],
  AUTH_REQUIRED_SCOPE: ['authRequiredScope', ''],
};

const params = Object.entries(placeholders).flatMap(([variable, [param, fallback]]) => {
  const value = process.env[variable] || fallback;
  if (!process.env[variable] && fallback) {
    process.stderr.write(
      `${variable} is not set: packaging with the placeholder "${fallback}" (set it to deploy)\n`,
    );
  }
  return value ? [`--param=${param}=${value}`] : [];
});

// stale bundles from an earlier build or an offline run would otherwise ride along
for (const dir of ['.esbuild', '.serverless'])
  rmSync(join(repoRoot, dir), { recursive: true, force: true });

const args = process.argv.slice(2);
const result = spawnSync(
  process.execPath,
  [
    join(repoRoot, 'node_modules', 'osls', 'bin', 'serverless.js'),
    'package',
    ...(args.includes('--stage') ? [] : ['--stage', 'dev']),
    ...params,
    ...args,
  ],
  { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, SLS_TELEMETRY_DISABLED: '1' } },
);
process.exit(result.status ?? 1);
