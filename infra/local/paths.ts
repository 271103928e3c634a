// Where the local run keeps its files: all under the git-ignored .local/ folder of the repo.
import { resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..');

/** DynamoDB Local itself (the jar and its native libraries), fetched once and shared by start and tests. */
export const dynamoDbLocalDir = resolve(repoRoot, '.local', 'dynamodb-local');

/** The local run's data: DynamoDB files and signing keys. PLANTS_LOCAL_DATA points elsewhere (tests do). */
export const localDataDir = (env: NodeJS.ProcessEnv = process.env) =>
  resolve(repoRoot, env.PLANTS_LOCAL_DATA || resolve(repoRoot, '.local', 'data'));

/**
 * The functions' environment of the npm start running on `dataDir` (its table, key, DynamoDB Local,
 * webhook receiver, secret and retry queue), kept there while it runs: `sls invoke local --stage
 * local` reads it (infra/local/stageParams.cjs) to run a function as npm start runs it.
 */
export const runningEnvPath = (dataDir: string) => resolve(dataDir, 'running-env.json');
