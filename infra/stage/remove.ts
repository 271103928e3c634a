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
import { secretParameterPrefix, stageNameProblem } from './settings.ts';
import {
  backUpTables,
  deleteStageData,
  describeStageData,
  findStageData,
  protectsData,
  stackName,
  stageRegion,
} from './stageData.ts';

const usage = `usage: npm run remove -- --stage <stage> [--region <region>] [--delete-data [--yes]]

Removes the stage's stack (sls remove): its API, functions, roles, log groups and alarms. What
holds data is kept and listed: its two tables, its queues (with the messages they hold) and the
operator's webhook secret (SSM, under /plant-store/<stage>/). A later deploy of the stage takes
the tables back.

  --delete-data   deletes those too, for good, after listing them, asking for the stage's name
                  and an on-demand backup of each table
  --yes           with --delete-data: asks nothing (CI), but for a stage whose serverless.yml
                  params set protectData (prod): its name is typed at a terminal
  --region        the stage's region; else AWS_REGION, else serverless.yml's

Needs the stage's deploy role, or credentials allowed as much (docs/deployment.md, "Removing a stage").`;

const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(1);
};
const say = (line: string) => process.stdout.write(`${line}\n`);

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
  say(usage);
  process.exit(0);
}
const stage = values.stage ?? fail(`--stage is missing\n\n${usage}`);
if (stage === 'local')
  fail("the local stage is npm start's: stop it, and delete .local/data to start afresh");
// a name no deploy accepts is no stage of this service: nothing of another is taken for it
for (const problem of stageNameProblem(stage)) fail(problem);
const deleteData = values['delete-data'] === true;
// a protected stage's data goes on a person's word only, typed: no flag stands for it
const guarded = deleteData && protectsData(stage);
const asks = guarded || (deleteData && !values.yes);
// refused before any AWS call: nothing is removed by a command no one can confirm
if (asks && !process.stdin.isTTY)
  fail(
    guarded
      ? `the stage ${stage} protects its data (serverless.yml, params.${stage}.protectData): --delete-data deletes it only from a terminal, where you type its name (--yes does not do): run it from one, or set protectData to 'false' first`
      : "--delete-data deletes the stage's tables and queues for good: add --yes to confirm without a terminal",
  );
const region = stageRegion(values.region);
const stack = stackName(stage);
const clients = {
  dynamodb: new DynamoDBClient({ region }),
  sqs: new SQSClient({ region }),
  ssm: new SSMClient({ region }),
};

const outputs = await new CloudFormationClient({ region })
  .send(new DescribeStacksCommand({ StackName: stack }))
  .then(
    ({ Stacks }) => Stacks?.[0]?.Outputs ?? [],
    (error: Error) => {
      if (!/does not exist/.test(error.message)) throw error;
      return undefined;
    },
  );
// the stage's own parameter only: one named elsewhere may be another stage's
const named =
  outputs?.find((output) => output.OutputKey === 'WebhookSecretParameter')?.OutputValue ||
  process.env.WEBHOOK_SECRET_PARAMETER;
const ours = named?.startsWith(secretParameterPrefix(stage)) ? named : undefined;
const data = await findStageData(stage, clients, ours);
const held = describeStageData(data);
const notOurs =
  named && !ours
    ? [`SSM parameter ${named} (not under ${secretParameterPrefix(stage)}: not deleted)`]
    : [];

if (asks) {
  say(`npm run remove deletes, in ${region}, for good (each table backed up first):`);
  say(`  the stack ${outputs ? stack : `${stack} (none: already removed)`}`);
  for (const line of held) say(`  ${line}`);
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  const answer = (await prompt.question("Type the stage's name to go on: ")).trim();
  prompt.close();
  if (answer !== stage) fail(`"${answer}" is not ${stage}: nothing removed`);
}

if (deleteData) {
  const backups = await backUpTables(data, clients.dynamodb).catch((error: Error) =>
    fail(
      `${error.message}\nNothing was removed: mend that (the credentials need dynamodb:CreateBackup and dynamodb:DescribeBackup on the stage's tables) and run npm run remove again`,
    ),
  );
  if (backups.length > 0)
    say(
      'Backed up; restore a table with the command beside it (docs/deployment.md, "Restoring a table"):',
    );
  for (const { table, arn } of backups)
    say(
      `  aws dynamodb restore-table-from-backup --region ${region} --target-table-name ${table} --backup-arn ${arn}`,
    );
}

if (outputs) {
  say(`Removing the stack ${stack} in ${region} (sls remove)`);
  const serverless = join(repoRoot, 'node_modules', 'osls', 'bin', 'serverless.js');
  const removed = spawnSync(
    process.execPath,
    [serverless, 'remove', '--stage', stage, '--region', region],
    { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, SLS_TELEMETRY_DISABLED: '1' } },
  );
  if (removed.status !== 0)
    fail('sls remove failed (above): mend what it says and run npm run remove again');
} else {
  say(
    `No stack ${stack} in ${region}: nothing to remove there but what it kept (another region? export AWS_REGION=<its region>)`,
  );
}

if (held.length === 0) {
  say(`The stage ${stage} holds nothing more in ${region}.`);
} else if (deleteData) {
  await deleteStageData(data, clients, say);
  say(`The stage ${stage} is gone, its data too.`);
} else {
  say(`Kept, with their data (a later deploy of ${stage} takes the tables back):`);
  for (const line of held) say(`  ${line}`);
  say(`To delete them for good: npm run remove -- --stage ${stage} --delete-data`);
}
for (const line of notOurs) say(line);
