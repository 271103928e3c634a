import { defineConfig } from 'vitest/config';

/** Each project's global setup: the run's temporary folder first (test/support/runTmpdir.ts). */
const globalSetup = (...more: string[]) => ['test/support/runTmpdir.ts', ...more];

export default defineConfig({
  test: {
    // the e2e HTTP tests' markers for npm run smoke (test/smoke/smoke.ts), which runs them on a stage
    tags: [
      {
        name: 'local',
        description: 'never against a stage: other callers, the local key or lines',
      },
      { name: 'public', description: 'needs no token: what anyone can see of a stage' },
      { name: 'receiver', description: 'needs a receiver answering 2xx: --receiver on a stage' },
    ],
    // the handler module reads its config at import; these values never reach a network
    env: {
      // DynamoDB Local accepts any credentials; tests must never pick up real AWS ones
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_SESSION_TOKEN: '',
      // as Lambda sets it for a container started by a request (lib/config/telemetry.ts)
      AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
      PLANTS_TABLE: 'plants-unit',
      AUTH_ISSUER: 'https://issuer.test/',
      AUTH_AUDIENCE: 'plant-store-test',
      AUTH_JWKS_URL: 'http://127.0.0.1:9/jwks.json',
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          globalSetup: globalSetup(),
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: globalSetup('test/support/dynamodbLocalSetup.ts'),
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'security',
          include: ['test/security/**/*.test.ts'],
          globalSetup: globalSetup('test/support/dynamodbLocalSetup.ts'),
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'reliability',
          include: ['test/reliability/**/*.test.ts'],
          globalSetup: globalSetup('test/support/dynamodbLocalSetup.ts'),
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: globalSetup(),
          // packaging and serverless-offline share the .esbuild/ build folder: one file at a time
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
