// What a deploy needs, checked before anything is created (infra/settingsCheck.cjs): its settings, and
// in the stack's region its deploy role stack, its webhook secret and the account's concurrency.
import { type CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetAccountSettingsCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { DescribeParametersCommand, type SSMClient } from '@aws-sdk/client-ssm';
import { AUDIENCES_RULE, audiencesOf } from '#lib/config/auth.ts';
import { yamlOf } from '../local/paths.ts';

const WHAT_YOU_NEED = 'docs/deployment.md, "What you need"';

/** A stage name its deploy role can hold to the stage (infra/deploy-role.yml's rule), or why not. */
export const stageNameProblem = (stage: string): string[] => {
  const rule: string = yamlOf('infra', 'deploy-role.yml').Parameters.Stage.AllowedPattern;
  if (new RegExp(rule).test(stage)) return [];
  return [
    `The stage name "${stage}" is not allowed: up to 10 lowercase letters and digits, starting with a letter (${rule}): its deploy role covers plant-store-<stage>-*, which a dash would stretch to another stage's resources, and every name of the stack must fit AWS's limits (infra/deploy-role.yml)`,
  ];
};

/** Where a stage's SSM parameters are: its roles' boundary lets them read there only. */
export const secretParameterPrefix = (stage: string) => `/plant-store/${stage}/`;

/** Each setting the deploy needs and lacks (serverless.yml's custom.environment): what to give. */
export const missingSettings = (settings: Record<string, string>, stage: string): string[] => {
  const prefix = secretParameterPrefix(stage);
  const parameter = settings.WEBHOOK_SECRET_PARAMETER;
  return [
    !settings.AUTH_ISSUER &&
      `authIssuer is not set: give --param="authIssuer=<your issuer URL>" or set AUTH_ISSUER (${WHAT_YOU_NEED})`,
    !settings.AUTH_AUDIENCE &&
      `authAudience is not set: give --param="authAudience=<your API's audience>" or set AUTH_AUDIENCE (${WHAT_YOU_NEED})`,
    settings.AUTH_AUDIENCE &&
      audiencesOf(settings.AUTH_AUDIENCE).includes('') &&
      `authAudience (AUTH_AUDIENCE) ${AUDIENCES_RULE} (docs/authentication.md)`,
    parameter &&
      !parameter.startsWith(prefix) &&
      `webhookSecretParameter ${parameter} is not under ${prefix}: name it there (aws ssm put-parameter --name ${prefix}webhook-secret ...), where the stage's functions, and only they, may read it (docs/deployment.md, "The operator's webhook")`,
    // the local run gives the secrets themselves (WEBHOOK_SECRET) instead of a parameter
    settings.WEBHOOK_URL &&
      !(parameter || settings.WEBHOOK_SECRET) &&
      `webhookSecretParameter is not set, and webhookUrl is: create the SSM SecureString of the receiver's secret and give --param="webhookSecretParameter=<its name>" or set WEBHOOK_SECRET_PARAMETER (docs/deployment.md, "The operator's webhook")`,
  ].filter((problem): problem is string => Boolean(problem));
};

/** The secret's parameter, when the stack's region does not hold it: what to do. */
export const secretParameterProblem = async (
  ssm: SSMClient,
  name: string,
  region: string,
): Promise<string | undefined> => {
  // DescribeParameters reads no value: the deploy role needs no access to the secret itself
  const { Parameters = [] } = await ssm.send(
    new DescribeParametersCommand({
      ParameterFilters: [{ Key: 'Name', Option: 'Equals', Values: [name] }],
    }),
  );
  if (Parameters.length > 0) return undefined;
  return `The SSM parameter ${name} is not in ${region}, the stack's region: create it there (aws ssm put-parameter --region ${region} ...) or deploy the stage to the region that holds it (export AWS_REGION=<its region>) (docs/troubleshooting.md, "The SSM parameter ... is not in ...")`;
};

/** The stack named, or undefined when CloudFormation says it does not exist (a ValidationError). */
export const describeStack = (cloudformation: CloudFormationClient, StackName: string) =>
  cloudformation.send(new DescribeStacksCommand({ StackName })).then(
    ({ Stacks }) => Stacks?.[0],
    (error: Error) => {
      if (!/does not exist/.test(error.message)) throw error;
      return undefined;
    },
  );

/** The stage's deploy role stack, when the region deployed to does not hold it: what to do. */
export const roleStackProblem = async (
  cloudformation: CloudFormationClient,
  stage: string,
  region: string,
): Promise<string | undefined> => {
  const StackName = `plant-store-${stage}-deploy-role`;
  const status = (await describeStack(cloudformation, StackName))?.StackStatus;
  // a stack whose creation failed and rolled back holds no role and no boundary
  if (status && !/^(ROLLBACK|CREATE_FAILED)/.test(status)) return undefined;
  if (status)
    return `The stage ${stage}'s deploy role stack (${StackName}) in ${region} is ${status}: its creation failed (its events say why), so it holds no role and no boundary. Delete it (aws cloudformation delete-stack --stack-name ${StackName}) and create it again (docs/deployment.md, "Deploying from CI")`;
  return `The stage ${stage} has no deploy role stack (${StackName}) in ${region}: a stage lives in its role stack's region, whose permissions boundary names it. Deploy to that region (export AWS_REGION=<its region>), or create the role stack in ${region} first (docs/deployment.md, "Deploying from CI")`;
};

interface FunctionEvents {
  events?: { sqs?: { maximumConcurrency?: number }; stream?: { parallelizationFactor?: number } }[];
}

/** What to do when the account's unreserved Lambda concurrency is less than the stage takes. */
export const concurrencyProblem = async (
  lambda: LambdaClient,
  functions: Record<string, FunctionEvents>,
  region: string,
): Promise<string | undefined> => {
  // at their most: each queue's batches, each stream's per shard (a new table's stream has one),
  // one of each other function (a route, a queue consumer without a maximum)
  let need = 0;
  for (const { events = [] } of Object.values(functions)) {
    let batches = 0;
    for (const { sqs, stream } of events)
      batches += sqs?.maximumConcurrency ?? (stream ? (stream.parallelizationFactor ?? 1) : 0);
    need += Math.max(batches, 1);
  }
  const { AccountLimit: limit } = await lambda.send(new GetAccountSettingsCommand({}));
  if ((limit?.UnreservedConcurrentExecutions ?? 0) >= need) return undefined;
  return `The account's Lambda concurrency in ${region} is ${limit?.ConcurrentExecutions} (${limit?.UnreservedConcurrentExecutions} unreserved), and the stage takes up to ${need} concurrent executions (its queues' maximumConcurrency, its streams' parallelizationFactor, one for each other function: serverless.yml's custom.deliveryConcurrency and custom.streamParallelization). Raise the quota "Concurrent executions" (L-B99A9384) in the Service Quotas console, or: aws service-quotas request-service-quota-increase --region ${region} --service-code lambda --quota-code L-B99A9384 --desired-value 1000 (docs/troubleshooting.md, "The account's Lambda concurrency ... is ...")`;
};
