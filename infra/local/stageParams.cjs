// serverless.yml's params of the `local` stage: npm start's environment, or for `sls invoke local`
// those the npm start running on PLANTS_LOCAL_DATA publishes; the environment wins.
module.exports = async ({ options }) => {
  // resolved whatever the stage: nothing below may touch a deploy
  if (options.stage !== 'local') return {};
  const { localDataDir, runningEnv } = await import('./paths.ts');
  const dataDir = localDataDir();
  // with no npm start on this data folder, only settings from the environment
  const env = { ...runningEnv(dataDir), ...process.env };
  if (!env.PLANTS_TABLE || !env.WEBHOOK_URL) {
    throw new Error(
      `the local stage runs against npm start, and none is running on ${dataDir}: start it in another terminal (npm start), with the same PLANTS_LOCAL_DATA if you set one`,
    );
  }
  // invoke local runs the function in this process, which hands it this environment: npm start's
  // credentials for DynamoDB Local and the SQS emulator, whose endpoint the SDK then uses
  for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_ENDPOINT_URL_SQS']) {
    if (env[name]) process.env[name] ??= env[name];
  }
  return {
    tableName: env.PLANTS_TABLE,
    webhooksTableName: env.WEBHOOKS_TABLE,
    webhookAllowPrivateUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS,
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT,
    authIssuer: env.AUTH_ISSUER,
    authAudience: env.AUTH_AUDIENCE,
    authJwksUrl: env.AUTH_JWKS_URL ?? '',
    authJwksFile: env.AUTH_JWKS_FILE ?? '',
    webhookUrl: env.WEBHOOK_URL,
    webhookSecret: env.WEBHOOK_SECRET,
    webhookSecretParameter: '',
    webhookDeadLetterQueueUrl: env.WEBHOOK_DEAD_LETTER_QUEUE_URL,
    webhookRetryQueueUrl: env.WEBHOOK_RETRY_QUEUE_URL,
    endpointDeliveryQueueUrl: env.ENDPOINT_DELIVERY_QUEUE_URL,
    endpointSlowDeliveryQueueUrl: env.ENDPOINT_SLOW_DELIVERY_QUEUE_URL,
    streamDeadLetterQueueUrl: env.STREAM_DEAD_LETTER_QUEUE_URL,
  };
};
