// What a deploy needs, checked before anything is created (infra/settingsCheck.cjs runs it): each
// missing setting named with what to give, and the operator's webhook secret looked up in the
// stack's own region, where its functions will read it.
import { type CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DescribeParametersCommand, type SSMClient } from '@aws-sdk/client-ssm';
import { AUDIENCES_RULE, audiencesOf } from '#lib/config/auth.ts';
import { yamlOf } from '../local/paths.ts';

/** A stage's settings as the functions will get them (serverless.yml, custom.environment). */
export interface StageSettings {
  authIssuer: string;
  authAudience: string;
  webhookUrl: string;
  webhookSecretParameter: string;
  /** the secrets themselves, instead of a parameter (the local run) */
  webhookSecret: string;
}

const WHAT_YOU_NEED = 'docs/deployment.md, "What you need"';

/** A stage name its deploy role can hold to the stage (infra/deploy-role.yml's rule), or why not. */
export const stageNameProblem = (stage: string): string[] => {
  const rule: string = yamlOf('infra', 'deploy-role.yml').Parameters.Stage.AllowedPattern;
  if (new RegExp(rule).test(stage)) return [];
  return [
    `The stage name "${stage}" is not allowed: lowercase letters and digits, starting with a letter (${rule}): its deploy role covers plant-store-<stage>-*, which a dash would stretch to another stage's resources (infra/deploy-role.yml)`,
  ];
};

/** Where a stage's SSM parameters are: its roles' boundary lets them read there only. */
export const secretParameterPrefix = (stage: string) => `/plant-store/${stage}/`;

/** Every setting the deploy needs and does not have, each a message saying what to give. */
export const missingSettings = (settings: StageSettings, stage: string): string[] => {
  const missing: string[] = [];
  if (!settings.authIssuer)
    missing.push(
      `authIssuer is not set: give --param="authIssuer=<your issuer URL>" or set AUTH_ISSUER (${WHAT_YOU_NEED})`,
    );
  if (!settings.authAudience)
    missing.push(
      `authAudience is not set: give --param="authAudience=<your API's audience>" or set AUTH_AUDIENCE (${WHAT_YOU_NEED})`,
    );
  else if (audiencesOf(settings.authAudience).includes(''))
    missing.push(`authAudience (AUTH_AUDIENCE) ${AUDIENCES_RULE} (docs/authentication.md)`);
  const prefix = secretParameterPrefix(stage);
  if (settings.webhookSecretParameter && !settings.webhookSecretParameter.startsWith(prefix))
    missing.push(
      `webhookSecretParameter ${settings.webhookSecretParameter} is not under ${prefix}: name it there (aws ssm put-parameter --name ${prefix}webhook-secret ...), where the stage's functions, and only they, may read it (docs/deployment.md, "The operator's webhook")`,
    );
  if (settings.webhookUrl && !settings.webhookSecretParameter && !settings.webhookSecret)
    missing.push(
      `webhookSecretParameter is not set, and webhookUrl is: create the SSM SecureString of the receiver's secret and give --param="webhookSecretParameter=<its name>" or set WEBHOOK_SECRET_PARAMETER (docs/deployment.md, "The operator's webhook")`,
    );
  return missing;
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

/** The stage's deploy role stack, when the region deployed to does not hold it: what to do. */
export const roleStackProblem = async (
  cloudformation: CloudFormationClient,
  stage: string,
  region: string,
): Promise<string | undefined> => {
  const StackName = `plant-store-${stage}-deploy-role`;
  try {
    await cloudformation.send(new DescribeStacksCommand({ StackName }));
    return undefined;
  } catch (error) {
    if (!(error instanceof Error && error.message.endsWith('does not exist'))) throw error;
  }
  return `The stage ${stage} has no deploy role stack (${StackName}) in ${region}: a stage lives in its role stack's region, whose permissions boundary names it. Deploy to that region (export AWS_REGION=<its region>), or create the role stack in ${region} first (docs/deployment.md, "Deploying from CI")`;
};
