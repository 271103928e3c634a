// A stage's CloudFormation template as `npm run package` writes it (infra/package.ts): with no AWS
// credentials (packaging must not need them), CORS off and no operator's webhook unless given.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../infra/local/paths.ts';

/** The operator's webhook's settings, as a deploy of `stage` gives them (its secret its own). */
export const operatorWebhook = (stage: string) => ({
  WEBHOOK_URL: 'https://hooks.example.com/plants',
  WEBHOOK_SECRET_PARAMETER: `/plant-store/${stage}/webhook-secret`,
});

export const packageStage = async <Template>(
  stage: string,
  env: NodeJS.ProcessEnv = {},
  args: string[] = [],
): Promise<Template> => {
  await promisify(execFile)(
    process.execPath,
    [join(repoRoot, 'infra', 'package.ts'), '--stage', stage, ...args],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        CORS_ALLOWED_ORIGINS: '',
        AWS_ACCESS_KEY_ID: '',
        AWS_SECRET_ACCESS_KEY: '',
        AWS_PROFILE: 'none',
        WEBHOOK_URL: '',
        WEBHOOK_SECRET_PARAMETER: '',
        ...env,
      },
    },
  );
  const file = join(repoRoot, '.serverless', 'cloudformation-template-update-stack.json');
  return JSON.parse(readFileSync(file, 'utf8')) as Template;
};
