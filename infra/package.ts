// `npm run package [-- --stage NAME]`: the deployment package and CloudFormation template in
// .serverless/, with no AWS credentials and no network. The settings come from --param or the
// environment (AUTH_ISSUER, AUTH_AUDIENCE, WEBHOOK_URL, WEBHOOK_SECRET_PARAMETER, ...);
// placeholders stand in for the required ones when unset, which is fine for reviewing the
// template but not for deploying it.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './local/paths.ts';

const placeholders = {
  AUTH_ISSUER: 'https://issuer.example.invalid/',
  AUTH_AUDIENCE: 'plant-store',
  WEBHOOK_URL: 'https://webhooks.example.invalid/plant-added',
  WEBHOOK_SECRET_PARAMETER: '/plant-store/webhook-secret',
};
const params: Record<keyof typeof placeholders, string> = {
  AUTH_ISSUER: 'authIssuer',
  AUTH_AUDIENCE: 'authAudience',
  WEBHOOK_URL: 'webhookUrl',
  WEBHOOK_SECRET_PARAMETER: 'webhookSecretParameter',
};

const env: NodeJS.ProcessEnv = { ...process.env, SLS_TELEMETRY_DISABLED: '1' };
const args = process.argv.slice(2);
for (const [variable, placeholder] of Object.entries(placeholders) as [
  keyof typeof placeholders,
  string,
][]) {
  const param = params[variable];
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
const serverless = join(repoRoot, 'node_modules', 'osls', 'bin', 'serverless.js');
const result = spawnSync(process.execPath, [serverless, 'package', ...stage, ...args], {
  cwd: repoRoot,
  stdio: 'inherit',
  env,
});
process.exit(result.status ?? 1);
