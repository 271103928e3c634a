// serverless.yml's params of the `local` stage. npm start passes every setting in the environment
// (infra/local/start.ts); `npx sls invoke local --stage local` passes none, and gets those of the
// npm start running on the same data folder (PLANTS_LOCAL_DATA): its DynamoDB Local (DYNAMODB_PORT),
// the table, the local signing key, and the webhook receiver and retry queue it publishes while it
// runs. A setting in the environment wins, as under npm start.
module.exports = async ({ options }) => {
  // resolved whatever the stage: nothing below may touch a deploy
  if (options.stage !== 'local') return {};
  const { readFileSync } = require('node:fs');
  const { localDataDir, runningWebhooksPath } = await import('./paths.ts');
  const { LOCAL_AUDIENCE, LOCAL_ISSUER, localJwksPath } = await import('./keys.ts');
  const env = process.env;
  const dataDir = localDataDir();
  let running = {};
  try {
    running = JSON.parse(readFileSync(runningWebhooksPath(dataDir), 'utf8'));
  } catch {
    // no npm start on this data folder: only settings from the environment
  }
  const webhooks = { ...running, ...env };
  if (!webhooks.WEBHOOK_URL) {
    throw new Error(
      `the local stage runs against npm start, and none is running on ${dataDir}: start it in another terminal (npm start), with the same PLANTS_LOCAL_DATA and DYNAMODB_PORT if you set any`,
    );
  }
  // invoke local runs the function in this process, which hands it this environment: DynamoDB
  // Local and the SQS stand-in accept any credentials (npm start gives these too), and the SDK
  // sends SQS requests to npm start's stand-in without a warning each
  env.AWS_ACCESS_KEY_ID ??= 'local';
  env.AWS_SECRET_ACCESS_KEY ??= 'local';
  if (webhooks.AWS_ENDPOINT_URL_SQS) env.AWS_ENDPOINT_URL_SQS ??= webhooks.AWS_ENDPOINT_URL_SQS;
  return {
    // else the default, plant-store-local-plants: npm start's
    ...(env.PLANTS_TABLE && { tableName: env.PLANTS_TABLE }),
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT ?? `http://127.0.0.1:${env.DYNAMODB_PORT || 8000}`,
    authIssuer: env.AUTH_ISSUER ?? LOCAL_ISSUER,
    authAudience: env.AUTH_AUDIENCE ?? LOCAL_AUDIENCE,
    authJwksFile: env.AUTH_JWKS_FILE ?? localJwksPath(dataDir),
    webhookUrl: webhooks.WEBHOOK_URL,
    webhookSecret: webhooks.WEBHOOK_SECRET,
    webhookSecretParameter: '',
    webhookDeadLetterQueueUrl: '',
    webhookDeadLetterDir: webhooks.WEBHOOK_DEAD_LETTER_DIR,
    webhookRetryQueueUrl: webhooks.WEBHOOK_RETRY_QUEUE_URL,
  };
};
