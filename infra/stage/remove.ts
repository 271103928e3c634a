// `npm run remove`: a stage's stack removed, and its data kept or, on purpose, deleted; as the usage says.
import { spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SSMClient } from '@aws-sdk/client-ssm';
import { repoRoot, serverlessCli, yamlOf } from '../local/paths.ts';
import { describeStack, secretParameterPrefix, stageNameProblem } from './settings.ts';
import {
  backUpTables,
  deleteStageData,
  describeStageData,
  findStageData,
  stackName,
  stageRegion,
} from './stageData.ts';

const usage = `usage: npm run remove -- --stage <stage> [--region <region>] [--delete-data [--yes]]

Removes the stage's stack (sls remove), keeping and listing what holds data: its two tables, its
queues and bucket, and the operator's webhook secret (docs/deployment.md, "Removing a stage").

  --delete-data   deletes those too, for good, each table backed up first; asks the stage's name
  --yes           with --delete-data: asks nothing (CI), but a protected stage's (prod) name
  --region        the stage's region; else AWS_REGION, else serverless.yml's`;

const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(1);
};
const say = (line: string) => process.stdout.write(`${line}\n`);

const [text, flag] = [{ type: 'string' }, { type: 'boolean' }] as const;
const options = { stage: text, region: text, 'delete-data': flag, yes: flag, help: flag };
const { values } = (() => {
  try {
    return parseArgs({ options });
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
const { params } = yamlOf('serverless.yml');
const guarded =
  deleteData && String(params[stage]?.protectData ?? params.default?.protectData) === 'true';
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
  s3: new S3Client({ region }),
  ssm: new SSMClient({ region }),
};

const found = await describeStack(new CloudFormationClient({ region }), stack);
// the stage's own parameter only: one named elsewhere may be another stage's
const named =
  found?.Outputs?.find((output) => output.OutputKey === 'WebhookSecretParameter')?.OutputValue ||
  process.env.WEBHOOK_SECRET_PARAMETER;
const ours = named?.startsWith(secretParameterPrefix(stage)) ? named : undefined;
const data = await findStageData(stage, clients, ours);
const held = describeStageData(data);

if (asks) {
  say(`npm run remove deletes, in ${region}, for good (each table backed up first):`);
  say(`  the stack ${found ? stack : `${stack} (none: already removed)`}`);
  for (const line of held) say(`  ${line}`);
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  const answer = (await prompt.question("Type the stage's name to go on: ")).trim();
  prompt.close();
  if (answer !== stage) fail(`"${answer}" is not ${stage}: nothing removed`);
}

if (found) {
  say(`Removing the stack ${stack} in ${region} (sls remove)`);
  const removed = spawnSync(
    process.execPath,
    [serverlessCli, 'remove', '--stage', stage, '--region', region],
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
  // once the stack is gone: no function writes to the tables any more
  if (data.tables.length > 0) {
    say('Backing up each table; each line restores one (docs/deployment.md#restoring-a-table):');
    await backUpTables(data, clients.dynamodb, say).catch((error: Error) =>
      fail(
        `${error.message}\nNo data was deleted: mend that (the credentials need dynamodb:CreateBackup and dynamodb:DescribeBackup on the stage's tables) and run npm run remove again`,
      ),
    );
  }
  await deleteStageData(data, clients, say);
  say(`The stage ${stage} is gone, its data too.`);
} else {
  say(`Kept, with their data (a later deploy of ${stage} takes the tables back):`);
  for (const line of held) say(`  ${line}`);
  say(`To delete them for good: npm run remove -- --stage ${stage} --delete-data`);
}
if (named && !ours)
  say(`SSM parameter ${named} (not under ${secretParameterPrefix(stage)}: not deleted)`);
