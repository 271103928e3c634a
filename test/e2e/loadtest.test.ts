// The load test in its small form, on the real local stack (npm start's): 500 mixed requests from
// four callers, every answer as the plant's state says and as the published contract says, and
// at the end nothing lost, altered, resurrected or shown to another caller. And the checker
// itself: a plant deleted, changed or brought back behind the service's back is caught, and
// `npm run loadtest` exits non-zero on wrong answers.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDynamoClient } from '../../infra/local/dynamoClient.ts';
import { repoRoot } from '../../infra/local/paths.ts';
import { type Caller, type LoadReport, runLoadTest, verifyLists } from '../load/loadRun.ts';
import { type LocalService, startLocalService } from '../support/localService.ts';
import { expectResponseMatchesContract } from '../support/openapiResponses.ts';

const run = promisify(execFile);
/** The table `npm start` serves (infra/local/start.ts). */
const LOCAL_TABLE = 'plant-store-local-plants';

const dataDir = mkdtempSync(join(tmpdir(), 'plant-store-loadtest-'));
let service: LocalService;
let callers: Caller[];
let report: LoadReport;

beforeAll(async () => {
  service = await startLocalService(dataDir);
  callers = await Promise.all(
    ['ann', 'ben', 'cy', 'di'].map(async (name) => ({
      name,
      token: (await service.token('--sub', name)).trim(),
    })),
  );
});
afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the load test, 500 mixed requests from four callers', () => {
  it('answers every request as the plant stands, and loses, alters or shows nothing', async () => {
    report = await runLoadTest({
      baseUrl: service.baseUrl,
      callers,
      requests: 500,
      concurrency: 16,
      seed: 7,
      // every answer under load still matches the published contract
      onResponse: ({ method, path, status, headers, body }) =>
        expectResponseMatchesContract(method, path, { status, headers, body }),
    });

    expect(report.verification).toEqual({
      checked: expect.any(Number),
      lost: 0,
      altered: 0,
      resurrected: 0,
      foreign: 0,
      duplicated: 0,
      serverErrors: 0,
      unexpected: 0,
      noAnswer: 0,
      uncertain: 0,
      problems: [],
    });
    expect(report.ok).toBe(true);
    expect(report.verification.checked).toBeGreaterThan(50);
    const operations = new Set(report.run.sent.map((s) => s.operation));
    expect([...operations].sort()).toEqual([
      'conflict',
      'create',
      'delete',
      'list',
      'listTag',
      'read',
      'readStranger',
      'retry',
      'staleUpdate',
      'update',
    ]);
  }, 180_000);

  it('catches a plant lost, altered or resurrected behind the service', async () => {
    const plants = [...report.run.plants.values()];
    // untagged ones: each is then in one list (a tagged one would count again in its tag's)
    const [lost, altered] = plants.filter((p) => !p.deleted && p.tag === undefined);
    const deleted = plants.find((p) => p.deleted);
    if (!lost || !altered || !deleted)
      throw new Error('the run left too few plants to tamper with');
    const documents = DynamoDBDocumentClient.from(localDynamoClient(service.dynamodbEndpoint));
    await documents.send(new DeleteCommand({ TableName: LOCAL_TABLE, Key: { id: lost.id } }));
    await documents.send(
      new UpdateCommand({
        TableName: LOCAL_TABLE,
        Key: { id: altered.id },
        UpdateExpression: 'SET #name = :name',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':name': 'changed behind the service' },
      }),
    );
    await documents.send(
      new PutCommand({
        TableName: LOCAL_TABLE,
        Item: {
          id: deleted.id,
          name: deleted.name,
          createdAt: new Date().toISOString(),
          createdBy: callers[deleted.owner]?.name,
          version: 1,
        },
      }),
    );
    documents.destroy();

    const verification = await verifyLists(report.run);

    expect(verification).toMatchObject({ lost: 1, altered: 1, resurrected: 1 });
  });

  it('npm run loadtest against a running stack prints the summary, and exits 1 when answers go wrong', async () => {
    const loadtest = (...args: string[]) =>
      run(process.execPath, [join(repoRoot, 'test', 'load', 'loadtest.ts'), ...args], {
        cwd: repoRoot,
      });
    const tokens = callers.slice(0, 2).flatMap(({ token }) => ['--token', token]);

    const { stdout, stderr } = await loadtest(
      '--url',
      service.baseUrl,
      ...tokens,
      ...['--requests', '60', '--concurrency', '4', '--ramp-up', '1'],
    );

    expect(stdout).toMatch(/from 2 callers/);
    expect(stdout).toMatch(/requests\/s/);
    expect(stdout).toMatch(/p50 [\d.]+ ms, p99 [\d.]+ ms/);
    expect(stdout).toMatch(/0 lost, 0 altered, 0 resurrected, 0 of another caller, 0 listed twice/);
    expect(stdout).toMatch(/5xx +0/);
    expect(stdout).toMatch(/result +OK/);
    expect(stderr).toMatch(/loadtest: 60\/60 \(100%\)/);

    // a token the service refuses: every answer is a 401, which the summary reports as a failure
    const refused = await loadtest(
      '--url',
      service.baseUrl,
      '--token',
      'x.y.z',
      '--requests',
      '5',
    ).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(refused.code).toBe(1);
  }, 60_000);
});
