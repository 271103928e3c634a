// A deployed stage's stack outputs: its API's URL (osls's HttpApiUrl), the version and commit it was
// deployed from (none in an older stack); every failure says what to do.
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { stackName } from '../../infra/stage/stageData.ts';

export const stackOutputs = async (stage: string, region: string) => {
  const name = stackName(stage);
  const client = new CloudFormationClient({ region });
  const stack = await client
    .send(new DescribeStacksCommand({ StackName: name }))
    .then(({ Stacks }) => Stacks?.[0])
    .catch((error: unknown) => {
      throw new Error(whatToDo(error, name, stage, region), { cause: error });
    })
    .finally(() => client.destroy());
  const output = (key: string) =>
    stack?.Outputs?.find(({ OutputKey }) => OutputKey === key)?.OutputValue;
  const url = output('HttpApiUrl');
  if (!url) {
    throw new Error(
      `the stack ${name} in ${region} has no output HttpApiUrl (its status: ${stack?.StackStatus ?? 'unknown'}): deploy the stage (npx sls deploy --stage ${stage}), or give the API's URL with --url`,
    );
  }
  return { url, version: output('Version'), commit: output('Commit') };
};

/** Why DescribeStacks failed, and what to do about it. */
const whatToDo = (error: unknown, name: string, stage: string, region: string) => {
  const { name: kind = '', message = String(error) } = error instanceof Error ? error : {};
  if (kind === 'ValidationError' && /does not exist/.test(message)) {
    return `the stack ${name} does not exist in ${region}: deploy the stage (npx sls deploy --stage ${stage}), or if it is in another region, give --region or export AWS_REGION=<its region>`;
  }
  if (kind === 'CredentialsProviderError' || /credential/i.test(message)) {
    return `no AWS credentials to read the stack ${name} with (${message}): configure them (aws configure, AWS_PROFILE, or aws sso login), or give the API's URL with --url (npx sls info --stage ${stage} shows it)`;
  }
  return `could not read the stack ${name} in ${region}: ${kind ? `${kind}: ` : ''}${message}. Check your AWS credentials (aws sts get-caller-identity) and that they may cloudformation:DescribeStacks, or give the API's URL with --url`;
};
