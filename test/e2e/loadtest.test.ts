// The load test in its small form, on the real local stack (npm start's): 500 requests with fresh
// ids, identical retries and conflicting duplicates, nothing lost, altered or overwritten, no 5xx.
// And the checker itself: a plant removed or changed in the table behind the service's back is
// caught, and `npm run loadtest` exits non-zero on it.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { DeleteCommand, DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDynamoClient } from '../../infra/local/dynamoClient.ts';
import { type LocalService, startLocalService } from '../../infra/local/localService.ts';
import { LOCAL_TABLE, type LoadReport, runLoadTest, verifyTable } from '../load/loadRun.ts';
import { expectResponseMatchesContract } from '../support/openapiResponses.ts';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);

const dataDir = mkdtempSync(join(tmpdir(), 'plant-store-loadtest-'));
let service: LocalService;
let token: string;
let report: LoadReport;

beforeAll(async () => {
  service = await startLocalService(dataDir);
  token = (await service.token()).trim();
});
afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the load test, 500 requests', () => {
  it('finds nothing lost, altered or overwritten, and no 5xx', async () => {
    report = await runLoadTest({
      baseUrl: service.baseUrl,
      token,
      dynamodbEndpoint: service.dynamodbEndpoint,
      requests: 500,
      concurrency: 16,
      // every answer under load still matches the published contract
      onResponse: ({ status, headers, body }) =>
        expectResponseMatchesContract('POST', '/plants', { status, headers, body }),
    });

    expect(report.verification).toEqual({
      checked: expect.any(Number),
      lost: 0,
      altered: 0,
      overwritten: 0,
      serverErrors: 0,
      unexpected: 0,
      noAnswer: 0,
      problems: [],
    });
    expect(report.ok).toBe(true);
    const kinds = report.run.sent.map((s) => s.kind);
    expect(kinds.filter((kind) => kind === 'retry').length).toBeGreaterThan(10);
    expect(kinds.filter((kind) => kind === 'conflict').length).toBeGreaterThan(10);
    expect(report.verification.checked).toBe(kinds.filter((kind) => kind === 'fresh').length);
  }, 180_000);

  it('catches a plant lost or altered behind the service', async () => {
    const [lost, altered] = report.run.sent.filter((s) => s.kind === 'fresh' && s.status === 200);
    if (!lost || !altered) throw new Error('the run stored fewer than two plants');
    const documents = DynamoDBDocumentClient.from(localDynamoClient(service.dynamodbEndpoint));
    await documents.send(new DeleteCommand({ TableName: LOCAL_TABLE, Key: { id: lost.plant.id } }));
    await documents.send(
      new UpdateCommand({
        TableName: LOCAL_TABLE,
        Key: { id: altered.plant.id },
        UpdateExpression: 'SET #name = :name',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':name': `${altered.plant.name}!` },
      }),
    );
    documents.destroy();

    const verification = await verifyTable(report.run, {
      dynamodbEndpoint: service.dynamodbEndpoint,
    });

    expect(verification).toMatchObject({ lost: 1, altered: 1 });
  });

  it('npm run loadtest against a running stack prints the summary, and exits 1 when answers go wrong', async () => {
    const loadtest = (...args: string[]) =>
      run(process.execPath, [join(repoRoot, 'test', 'load', 'loadtest.ts'), ...args], {
        cwd: repoRoot,
      });
    const target = [
      '--url',
      service.baseUrl,
      '--dynamodb-endpoint',
      service.dynamodbEndpoint,
      '--token',
      token,
    ];

    const { stdout, stderr } = await loadtest(
      ...target,
      ...['--requests', '60', '--concurrency', '4', '--ramp-up', '1'],
    );

    expect(stdout).toMatch(/requests\/s/);
    expect(stdout).toMatch(/p50 [\d.]+ ms, p99 [\d.]+ ms/);
    expect(stdout).toMatch(/0 lost, 0 altered, 0 overwritten/);
    expect(stdout).toMatch(/5xx +0/);
    expect(stderr).toMatch(/loadtest: 60\/60 \(100%\)/);

    // a token the service refuses: every answer is a 401, which the summary reports as a failure
    const refused = await loadtest(
      ...target.slice(0, 4),
      '--token',
      'x.y.z',
      '--requests',
      '5',
    ).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/401: 5/);
    expect(refused.stdout).toMatch(/FAILED/);
  }, 60_000);
});
