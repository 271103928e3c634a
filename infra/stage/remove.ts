// `npm run remove`: a stage's stack removed, and its data kept or, on purpose, deleted; as the usage says.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SSMClient } from '@aws-sdk/client-ssm';
import { repoRoot } from '../local/paths.ts';
import { deleteStageData, describeStageData, findStageData, stackName } from './stageData.ts';

const usage = `usage: npm run remove -- --stage <stage> [--region <region>] [--delete-data [--yes]]

Removes the stage's stack (sls remove): its API, functions, roles, log groups and alarms. What
holds data is kept and listed: its two tables, its queues (with the messages they hold) and the
operator's webhook secret (SSM). A later deploy of the stage takes the tables back.

  --delete-data   deletes those too, for good, after asking for the stage's name again
  --yes           with --delete-data: asks nothing (CI)
  --region        the stage's region; else AWS_REGION, else us-east-1

Needs the deploy role's permissions (docs/deployment.md, "Removing a stage").`;

const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(1);
};

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        stage: { type: 'string' },
        region: { type: 'string' },
        'delete-data': { type: 'boolean' },
        yes: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${usage}`);
  }
})();
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
const stage = values.stage ?? fail(`--stage is missing\n\n${usage}`);
if (stage === 'local')
  fail("the local stage is npm start's: stop it, and delete .local/data to start afresh");
const deleteData = values['delete-data'] === true;
const region = values.region ?? process.env.AWS_REGION ?? 'us-east-1';
const stack = stackName(stage);

// asked before any AWS call: nothing is removed by a mistyped command
if (deleteData && !values.yes) {
  if (!process.stdin.isTTY)
    fail(
      "--delete-data deletes the stage's tables and queues for good: add --yes to confirm without a terminal",
    );
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await prompt.question(
    `This deletes the stage ${stage}'s tables, queues and webhook secret in ${region} for good.\nType the stage's name to go on: `,
  );
  prompt.close();
  if (answer.trim() !== stage) fail(`"${answer.trim()}" is not ${stage}: nothing removed`);
}

const cloudFormation = new CloudFormationClient({ region });
const clients = {
  dynamodb: new DynamoDBClient({ region }),
  sqs: new SQSClient({ region }),
  ssm: new SSMClient({ region }),
};

const outputs = await cloudFormation.send(new DescribeStacksCommand({ StackName: stack })).then(
  ({ Stacks }) => Stacks?.[0]?.Outputs ?? [],
  (error: Error) => {
    if (!/does not exist/.test(error.message)) throw error;
    return undefined;
  },
);
if (outputs) {
  process.stdout.write(`Removing the stack ${stack} in ${region} (sls remove)\n`);
  const serverless = join(repoRoot, 'node_modules', 'osls', 'bin', 'serverless.js');
  const removed = spawnSync(
    process.execPath,
    [serverless, 'remove', '--stage', stage, '--region', region],
    { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, SLS_TELEMETRY_DISABLED: '1' } },
  );
  if (removed.status !== 0)
    fail(`sls remove failed (above): mend what it says and run npm run remove again`);
} else {
  process.stdout.write(
    `No stack ${stack} in ${region}: nothing to remove there but what it kept (another region? export AWS_REGION=<its region>)\n`,
  );
}

const secretParameter =
  outputs?.find((output) => output.OutputKey === 'WebhookSecretParameter')?.OutputValue ||
  process.env.WEBHOOK_SECRET_PARAMETER;
const data = await findStageData(stage, clients, secretParameter);
const kept = describeStageData(data);
if (kept.length === 0) {
  process.stdout.write(`The stage ${stage} holds nothing more in ${region}.\n`);
} else if (deleteData) {
  await deleteStageData(data, clients, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(`The stage ${stage} is gone, its data too.\n`);
} else {
  process.stdout.write(
    `Kept, with their data (a later deploy of ${stage} takes the tables back):\n${kept.map((line) => `  ${line}`).join('\n')}\nTo delete them for good: npm run remove -- --stage ${stage} --delete-data\n`,
  );
}
