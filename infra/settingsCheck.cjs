// A serverless.yml plugin: `sls deploy` and `sls package` stop at once, before anything is built or
// created, when a setting the stage needs is missing; a deploy also when the region lacks the stage's
// deploy role stack, the webhook secret or the concurrency the stage takes (infra/stage/settings.ts
// says what to do).
const check = async ({ service, processedInput, classes }, provider) => {
  const { stage } = service.provider;
  const command = processedInput.commands[0];
  if (stage === 'local' || !['deploy', 'package'].includes(command)) return;
  const checks = await import('./stage/settings.ts');
  const settings = service.custom.environment;
  const problems = [...checks.stageNameProblem(stage), ...checks.missingSettings(settings, stage)];
  // only a deploy asks AWS: a package is made offline
  if (problems.length === 0 && command === 'deploy') {
    const { CloudFormationClient } = await import('@aws-sdk/client-cloudformation');
    const { LambdaClient } = await import('@aws-sdk/client-lambda');
    const { SSMClient } = await import('@aws-sdk/client-ssm');
    const config = await provider.getAwsSdkV3Config();
    const region = provider.getRegion();
    const parameter = settings.WEBHOOK_SECRET_PARAMETER;
    const found = await Promise.all([
      checks.roleStackProblem(new CloudFormationClient(config), stage, region),
      parameter && checks.secretParameterProblem(new SSMClient(config), parameter, region),
      checks.concurrencyProblem(new LambdaClient(config), service.functions, region),
    ]);
    problems.push(...found.filter(Boolean));
  }
  if (problems.length > 0) throw new classes.Error(problems.join('\n'));
};

module.exports = class SettingsCheck {
  constructor(serverless) {
    this.hooks = { initialize: () => check(serverless, serverless.getProvider('aws')) };
  }
};
