// serverless.yml's params of the `local` stage: npm start's environment, or for `sls invoke local`
// those the npm start running on PLANTS_LOCAL_DATA publishes; the environment wins.
module.exports = async ({ options }) => {
  // resolved whatever the stage: nothing below may touch a deploy
  if (options.stage !== 'local') return {};
  const { localDataDir, runningEnv, yamlOf } = await import('./paths.ts');
  const dataDir = localDataDir();
  // with no npm start on this data folder, only settings from the environment
  const published = runningEnv(dataDir) ?? process.env;
  const env = { ...published, ...process.env };
  if (!env.PLANTS_TABLE || !env.WEBHOOK_URL)
    throw new Error(
      `the local stage runs against npm start, and none is running on ${dataDir}: start it in another terminal (npm start), with the same PLANTS_LOCAL_DATA if you set one`,
    );
  // invoke local runs the function in this process, which hands it this environment: npm start's
  // credentials for DynamoDB Local and the SQS emulator, whose endpoint the SDK then uses
  for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_ENDPOINT_URL_SQS'])
    if (env[name]) process.env[name] ??= env[name];
  // each param a variable npm start publishes takes as its source (custom.environment's ${param:name})
  const params = Object.entries(yamlOf('serverless.yml').custom.environment).flatMap(
    ([variable, source]) => {
      const name = /^\$\{param:(\w+)/.exec(String(source))?.[1];
      return name && variable in published ? [[name, env[variable]]] : [];
    },
  );
  // the local stage's secrets are WEBHOOK_SECRET's, never an SSM parameter's
  return { ...Object.fromEntries(params), webhookSecretParameter: '' };
};
