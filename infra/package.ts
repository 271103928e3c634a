// `npm run package [-- --stage NAME]`: the package and CloudFormation template in .serverless/, with
// no AWS credentials or network. Settings come from --param or the environment; placeholders stand
// in for required ones when unset (fine for reviewing the template, not for deploying it).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, serverlessCli } from './local/paths.ts';

// each required setting: its --param name, and the placeholder packaged when it is unset (the
// operator's webhook is optional: without webhookUrl the template has none of it)
const placeholders = {
  AUTH_ISSUER: ['authIssuer', 'https://issuer.example.invalid/'],
  AUTH_AUDIENCE: ['authAudience', 'plant-store'],
};

const env: NodeJS.ProcessEnv = { ...process.env, SLS_TELEMETRY_DISABLED: '1' };
const args = process.argv.slice(2);
for (const [variable, [param, placeholder]] of Object.entries(placeholders)) {
  if (env[variable] || args.some((arg) => arg.includes(`${param}=`))) continue;
  process.stderr.write(
    `${variable} is not set: packaging with the placeholder "${placeholder}" (set it to deploy)\n`,
  );
  env[variable] = placeholder;
}

// stale bundles from an earlier build or an offline run would otherwise ride along
for (const dir of ['.esbuild', '.serverless'])
  rmSync(join(repoRoot, dir), { recursive: true, force: true });

const stage = args.some((arg) => arg === '--stage' || arg.startsWith('--stage='))
  ? []
  : ['--stage', 'dev'];
const result = spawnSync(process.execPath, [serverlessCli, 'package', ...stage, ...args], {
  cwd: repoRoot,
  stdio: 'inherit',
  env,
});
process.exit(result.status ?? 1);
