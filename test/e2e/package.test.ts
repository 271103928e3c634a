// `npm run package`: the function a deploy would create, and the bundle Lambda would load.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/freePort.ts';
import { repoRoot } from '../../infra/local/paths.ts';
import { startLocalSqs } from '../../infra/local/sqs.ts';
import { makeWebhookSecret } from '../support/webhookSecrets.ts';
import { readZipEntry, zipEntryNames } from '../support/zip.ts';

const run = promisify(execFile);

interface Template {
  Resources: Record<
    string,
    { Type: string; DeletionPolicy?: string; Properties: Record<string, unknown> }
  >;
}

let template: Template;

beforeAll(async () => {
  // no AWS credentials and no network: a deploy-less package must still build
  const env = {
    ...process.env,
    AWS_ACCESS_KEY_ID: '',
    AWS_SECRET_ACCESS_KEY: '',
    AWS_PROFILE: 'none',
    // with the operator's webhook: every function's bundle
    WEBHOOK_URL: 'https://hooks.example.com/plants',
    WEBHOOK_SECRET_PARAMETER: '/plant-store/e2e/webhook-secret',
  };
  await run(process.execPath, [join(repoRoot, 'infra', 'package.ts'), '--stage', 'e2e'], {
    cwd: repoRoot,
    env,
  });
  template = JSON.parse(
    readFileSync(
      join(repoRoot, '.serverless', 'cloudformation-template-update-stack.json'),
      'utf8',
    ),
  );
});

/** A function's own package, as serverless-esbuild writes it with `package.individually`. */
const functionPackage = (name: string) => join(repoRoot, '.serverless', `${name}.zip`);

/** The folders unpackedBundle made, removed after each test. */
const bundleDirs: string[] = [];
afterEach(() => {
  for (const dir of bundleDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A function's bundle from its package, alone in a new folder (handlers/<name>.mjs). */
const unpackedBundle = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), 'plant-store-bundle-'));
  bundleDirs.push(dir);
  const bundle = readZipEntry(functionPackage(name), `handlers/${name}.mjs`);
  expect(bundle, `the package holds handlers/${name}.mjs`).toBeDefined();
  mkdirSync(join(dir, 'handlers'));
  writeFileSync(join(dir, 'handlers', `${name}.mjs`), bundle ?? '');
  return dir;
};

describe('npm run package', () => {
  // the table, its policies and the IAM role, for two stages: test/e2e/deployment.test.ts
  it('runs the function on nodejs24.x with the table and auth settings in its environment', () => {
    const fn = template.Resources.CreatePlantLambdaFunction?.Properties;

    expect(fn).toMatchObject({
      Runtime: 'nodejs24.x',
      Environment: {
        Variables: { PLANTS_TABLE: 'plant-store-e2e-plants', AUTH_ISSUER: expect.any(String) },
      },
    });
  });

  it("deploys each function from a package of its own that holds its bundle and no other function's", () => {
    const functions = Object.values(template.Resources)
      .filter((resource) => resource.Type === 'AWS::Lambda::Function')
      .map(({ Properties }) => ({
        name: /^handlers\/(\w+)\.handler$/.exec(String(Properties.Handler))?.[1],
        key: (Properties.Code as { S3Key: string }).S3Key,
      }));
    // one per handler, and no shared package beside them
    const handlers = readdirSync(join(repoRoot, 'handlers')).map((file) =>
      file.replace(/\.ts$/, ''),
    );
    expect(functions.map(({ name }) => name).sort()).toEqual(handlers.sort());
    expect(
      readdirSync(join(repoRoot, '.serverless'))
        .filter((file) => file.endsWith('.zip'))
        .sort(),
    ).toEqual(handlers.map((name) => `${name}.zip`).sort());

    for (const { name, key } of functions) {
      expect(key).toMatch(new RegExp(`/${name}\\.zip$`));
      expect(zipEntryNames(functionPackage(name ?? ''))).toEqual([`handlers/${name}.mjs`]);
    }
  });

  it('ships a bundle that loads from a real .mjs file and answers an Error body', async () => {
    const dir = unpackedBundle('createPlant');
    // a real module file: `node -e "import(...)"` would hide load-time crashes of ESM bundles
    writeFileSync(
      join(dir, 'smoke.mjs'),
      `import { handler } from './handlers/createPlant.mjs';
import { writeFileSync } from 'node:fs';
const response = await handler({ version: '2.0', headers: {}, body: '{}', isBase64Encoded: false },
  { awsRequestId: 'smoke', functionName: 'smoke', getRemainingTimeInMillis: () => 5000 });
writeFileSync('response.json', JSON.stringify(response));`,
    );
    const { stdout } = await run(process.execPath, [join(dir, 'smoke.mjs')], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        PLANTS_TABLE: 't',
        AUTH_ISSUER: 'https://issuer.test/',
        AUTH_AUDIENCE: 'a',
      },
    });

    const response = JSON.parse(readFileSync(join(dir, 'response.json'), 'utf8'));
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body)).toEqual({ error: 401, message: expect.any(String) });
    // the bundle's telemetry wrote the request's line (stdout: its JSON documents)
    const documents = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(documents).toContainEqual(
      expect.objectContaining({ status: 401, route: 'POST /plants' }),
    );
  });

  it('ships a webhook bundle that loads from a real .mjs file and keeps a failed event waiting in the retry queue', async () => {
    const dir = unpackedBundle('deliverPlantAdded');
    const record = {
      eventID: '1',
      eventName: 'INSERT',
      dynamodb: {
        SequenceNumber: '100',
        NewImage: {
          id: { N: '9' },
          name: { S: 'Pilea' },
          createdAt: { S: '2026-11-22T10:00:00.000Z' },
          createdBy: { S: 'alice' },
          version: { N: '1' },
        },
      },
    };
    writeFileSync(
      join(dir, 'smoke.mjs'),
      `import { handler } from './handlers/deliverPlantAdded.mjs';
import { writeFileSync } from 'node:fs';
const response = await handler({ Records: [${JSON.stringify(record)}] },
  { awsRequestId: 'smoke', functionName: 'smoke', getRemainingTimeInMillis: () => 30000 });
writeFileSync('response.json', JSON.stringify(response));`,
    );
    const sqs = await startLocalSqs({
      dir: join(dir, 'sqs'),
      queues: { retries: {}, 'dead-letters': {}, 'stream-dead-letters': {} },
    });
    try {
      await run(process.execPath, [join(dir, 'smoke.mjs')], {
        cwd: dir,
        env: {
          PATH: process.env.PATH,
          // nothing listens there: the first attempt fails and the event waits in the queue
          WEBHOOK_URL: `http://127.0.0.1:${await freePort()}/hooks`,
          WEBHOOK_SECRET: makeWebhookSecret(),
          WEBHOOK_RETRY_QUEUE_URL: sqs.queueUrl('retries'),
          WEBHOOK_DEAD_LETTER_QUEUE_URL: sqs.queueUrl('dead-letters'),
          STREAM_DEAD_LETTER_QUEUE_URL: sqs.queueUrl('stream-dead-letters'),
          AWS_ENDPOINT_URL_SQS: sqs.endpoint,
          AWS_REGION: 'us-east-1',
          AWS_ACCESS_KEY_ID: 'local',
          AWS_SECRET_ACCESS_KEY: 'local',
        },
      });

      expect(JSON.parse(readFileSync(join(dir, 'response.json'), 'utf8'))).toEqual({
        batchItemFailures: [],
      });
      const client = new SQSClient({
        endpoint: sqs.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      const { Messages = [] } = await client.send(
        new ReceiveMessageCommand({ QueueUrl: sqs.queueUrl('retries'), WaitTimeSeconds: 6 }),
      );
      expect(Messages.map((message) => JSON.parse(message.Body ?? '{}'))).toEqual([
        expect.objectContaining({
          plantId: 9,
          body: '{"id":9,"name":"Pilea"}',
          attempts: 1,
          lastError: 'ECONNREFUSED',
        }),
      ]);
    } finally {
      await sqs.stop();
    }
  });
});
