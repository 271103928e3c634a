// A serverless.yml plugin: each function's role is plant-store-<stage>-<function>-lambdaRole, without
// the region serverless-iam-roles-per-function puts in, which past 64 characters it would cut the
// suffix the deploy role's grants name (infra/deploy-role.yml). A stage lives in one region.
module.exports = class RoleNames {
  constructor(serverless) {
    const provider = serverless.getProvider('aws');
    provider.naming.getRoleName = () => ({
      'Fn::Join': ['-', [serverless.service.service, provider.getStage(), 'lambdaRole']],
    });
  }
};
