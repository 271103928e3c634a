// A serverless.yml plugin: `sls deploy` and `sls package` stop at once, before anything is built or
// created, when a setting the stage needs is missing, and a deploy when the stage's deploy role stack
// or the operator's webhook secret is not in the stack's region (infra/stage/settings.ts says what
// to do for each).
class SettingsCheck {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = { initialize: () => this.check() };
  }

  async check() {
    const { service, processedInput } = this.serverless;
    const command = processedInput.commands[0];
    if (service.provider.stage === 'local' || !['deploy', 'package'].includes(command)) return;
    const { missingSettings, roleStackProblem, secretParameterProblem, stageNameProblem } =
      await import('./stage/settings.ts');
    const { route, webhook } = service.custom.environment;
    const settings = {
      authIssuer: route.AUTH_ISSUER,
      authAudience: route.AUTH_AUDIENCE,
      webhookUrl: webhook.WEBHOOK_URL,
      webhookSecretParameter: webhook.WEBHOOK_SECRET_PARAMETER,
      webhookSecret: webhook.WEBHOOK_SECRET,
    };
    const { stage } = service.provider;
    const problems = [...stageNameProblem(stage), ...missingSettings(settings, stage)];
    if (problems.length === 0 && command === 'deploy') {
      const { CloudFormationClient } = await import('@aws-sdk/client-cloudformation');
      const { SSMClient } = await import('@aws-sdk/client-ssm');
      const provider = this.serverless.getProvider('aws');
      const config = await provider.getAwsSdkV3Config();
      const region = provider.getRegion();
      problems.push(
        ...[
          await roleStackProblem(new CloudFormationClient(config), stage, region),
          settings.webhookSecretParameter &&
            (await secretParameterProblem(
              new SSMClient(config),
              settings.webhookSecretParameter,
              region,
            )),
        ].filter(Boolean),
      );
    }
    if (problems.length > 0) throw new this.serverless.classes.Error(problems.join('\n'));
  }
}

module.exports = SettingsCheck;
