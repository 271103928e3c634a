// Where the local run keeps its files: all under the git-ignored .local/ folder of the repo.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';

export const repoRoot = resolve(import.meta.dirname, '..', '..');

/** osls's command line, run with this Node (`sls offline`, `sls remove`, `sls package`). */
export const serverlessCli = resolve(repoRoot, 'node_modules', 'osls', 'bin', 'serverless.js');

/** A YAML file of the repository, its CloudFormation tags (!GetAtt, ...) left unresolved. */
export const yamlOf = (...path: string[]) =>
  parse(readFileSync(resolve(repoRoot, ...path), 'utf8'), { logLevel: 'error' });

/** serverless.yml's functions as written, and the operator's webhook's; not the routes' (derived). */
export const declaredFunctions = () =>
  Object.assign(
    {},
    ...yamlOf('serverless.yml').functions.filter((entry: unknown) => typeof entry === 'object'),
    yamlOf('infra', 'operatorWebhook.yml').functions,
  );

/** The webhooks' resources as written, by logical id: every stage's and the operator's webhook's. */
export const declaredWebhookResources = (): Record<string, ReturnType<typeof yamlOf>> => ({
  ...yamlOf('infra', 'webhooks.yml').Resources,
  ...yamlOf('infra', 'operatorWebhook.yml').resources.Resources,
});

/** The queues among those: [logical id, resource]. */
export const declaredQueues = () =>
  Object.entries(declaredWebhookResources()).filter(([, { Type }]) => Type === 'AWS::SQS::Queue');

/** DynamoDB Local itself (the jar and its native libraries), fetched once and shared by start and tests. */
export const dynamoDbLocalDir = resolve(repoRoot, '.local', 'dynamodb-local');

/** The local run's data: DynamoDB files and signing keys. PLANTS_LOCAL_DATA points elsewhere (tests do). */
export const localDataDir = () => resolve(repoRoot, process.env.PLANTS_LOCAL_DATA || '.local/data');

/** Every JSON line the functions of npm start wrote, appended as written, for `npm run trace`. */
export const localLogsPath = (dataDir: string) => resolve(dataDir, 'logs.jsonl');

/** The most bytes of kept log lines npm start starts with: past it, moved aside to logs.jsonl.1. */
export const KEPT_LOG_BYTES = 64 * 2 ** 20;

/** The running npm start's functions' environment, for stageParams.cjs and webhooks:redrive. */
export const runningEnvPath = (dataDir: string) => resolve(dataDir, 'running-env.json');

/** What runningEnvPath holds; undefined when no npm start runs on `dataDir`. */
export const runningEnv = (dataDir: string): Record<string, string> | undefined => {
  try {
    return JSON.parse(readFileSync(runningEnvPath(dataDir), 'utf8'));
  } catch {
    return undefined;
  }
};
