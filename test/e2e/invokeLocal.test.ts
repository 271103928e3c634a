// docs/local-development.md's `npx sls invoke local --stage local -f <function> --path events/<function>.json`, as
// a user runs it: npm start up (on ports and a data folder of its own), the sample events written
// by `npm run events`, and each function invoked in a process of its own from a shell that has
// none of the service's settings and no AWS credentials. Each answers as it does deployed.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantAddedEvent } from '#lib/operatorWebhook/plantAdded.ts';
import { ROUTE_NAMES } from '#lib/routes/routeList.ts';
import { declaredFunctions, repoRoot, serverlessCli } from '../../infra/local/paths.ts';
import { type LocalService, startLocalService } from '../support/localService.ts';

const run = promisify(execFile);

let service: LocalService;
let eventsDir: string;

/** A shell's environment without the service's settings or AWS credentials, and with `settings`. */
const shell = (settings: Record<string, string>) => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(AUTH_|PLANTS_|DYNAMODB_|WEBHOOK_|AWS_)/.test(name),
    ),
  ),
  ...settings,
});

/** As docs/local-development.md says, with the same PLANTS_LOCAL_DATA and DYNAMODB_PORT as npm start. */
const npmStartsSettings = () => ({
  PLANTS_LOCAL_DATA: service.dataDir,
  DYNAMODB_PORT: new URL(service.dynamodbEndpoint).port,
});

const sls = (args: string[], settings: Record<string, string>) =>
  run(process.execPath, [serverlessCli, ...args], {
    cwd: repoRoot,
    env: shell(settings),
    // a function that fails to load leaves invoke local running after its error (serverless-esbuild
    // keeps its build context): stopped, the error says what it printed
    timeout: 20_000,
  });

/** The function's answer to `event` (its sample by default): what invoke local prints after its log. */
const invoke = async (name: string, event = join(eventsDir, `${name}.json`)) => {
  const { stdout } = await sls(
    ['invoke', 'local', '--stage', 'local', '-f', name, '--path', event],
    npmStartsSettings(),
  );
  // each log line is one line of JSON; the answer is printed over several, from a lone "{"
  const start = stdout.lastIndexOf('\n{\n');
  expect(start, `invoke local printed an answer:\n${stdout}`).toBeGreaterThanOrEqual(0);
  return JSON.parse(stdout.slice(start)) as {
    statusCode?: number;
    headers?: Record<string, string>;
    body?: unknown;
    batchItemFailures?: unknown[];
  };
};

const sample = (name: string) => JSON.parse(readFileSync(join(eventsDir, `${name}.json`), 'utf8'));

/** npm start's line for each delivery its receiver verified, of the event `webhookId`. */
const verifiedDeliveries = (webhookId: string) =>
  service.output().split(`(webhook-id ${webhookId}): signature ok`).length - 1;

beforeAll(async () => {
  service = await startLocalService();
  eventsDir = mkdtempSync(join(tmpdir(), 'plant-store-events-'));
  await run(
    process.execPath,
    [join(repoRoot, 'infra', 'local', 'sampleEvents.ts'), '--out', eventsDir],
    { cwd: repoRoot, env: shell({ PLANTS_LOCAL_DATA: service.dataDir }) },
  );
});
afterAll(() => service?.stop());

describe('sls invoke local --stage local, with npm start running', () => {
  const plant = { id: 1, name: 'Monstera', tag: 'indoor' };

  it('has a sample event for every function of serverless.yml', () => {
    // the routes' functions (generated from the route list), then those written out
    const written = Object.keys(declaredFunctions());
    expect(readdirSync(eventsDir).sort()).toEqual(
      [...ROUTE_NAMES, ...written].map((name) => `${name}.json`).sort(),
    );
  });

  it('createPlant stores the sample plant, which reaches npm start as one created over HTTP', async () => {
    const created = await invoke('createPlant');
    expect(created).toMatchObject({ statusCode: 200, body: { name: plant.name, tag: plant.tag } });
    // npm start's stream poller delivers it to npm start's receiver: the same table (and npm start
    // has loaded its deliverPlantAdded before invoke local writes that bundle again, below)
    await expect
      .poll(() => service.output(), { timeout: 20_000 })
      .toMatch(/webhook: plant 1 "Monstera" \(webhook-id msg_[\w-]+\): signature ok/);
  });

  it("listPlants answers the caller's plants", async () => {
    expect(await invoke('listPlants')).toMatchObject({ statusCode: 200, body: [plant] });
  });

  it('getPlant answers the plant with its version as ETag', async () => {
    expect(await invoke('getPlant')).toMatchObject({
      statusCode: 200,
      headers: { ETag: '"1"' },
      body: plant,
    });
  });

  it('updatePlant writes the next version', async () => {
    expect(await invoke('updatePlant')).toMatchObject({
      statusCode: 200,
      headers: { ETag: '"2"' },
      body: plant,
    });
  });

  it('patchPlant writes the next version', async () => {
    expect(await invoke('patchPlant')).toMatchObject({
      statusCode: 200,
      headers: { ETag: '"3"' },
      body: plant,
    });
  });

  it('deletePlant deletes it: 204, and getPlant then answers 404', async () => {
    const deleted = await invoke('deletePlant');
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect(await invoke('getPlant')).toMatchObject({
      statusCode: 404,
      body: { error: 404, message: expect.stringContaining('No plant with id 1') },
    });
  });

  it('createEndpoint registers an endpoint on this machine; the others answer for an id none has', async () => {
    expect(await invoke('createEndpoint')).toMatchObject({
      statusCode: 201,
      body: { url: 'http://127.0.0.1:9/hooks', secret: expect.stringMatching(/^whsec_/) },
    });
    expect(await invoke('getEndpoint')).toMatchObject({
      statusCode: 404,
      body: { error: 404, message: expect.stringContaining('No webhook endpoint with id ep_') },
    });
  });

  it('unmatchedRoute answers 404 with the Error body', async () => {
    expect(await invoke('unmatchedRoute')).toMatchObject({
      statusCode: 404,
      body: { error: 404, message: expect.stringContaining('There is no /plant') },
    });
  });

  it("deliverPlantAdded and retryPlantAdded deliver the sample event to npm start's receiver, signed with its secret", async () => {
    const { Records } = sample('deliverPlantAdded') as { Records: DynamoDBRecord[] };
    const { webhookId } = plantAddedEvent(Records[0] ?? {});
    expect(await invoke('deliverPlantAdded')).toEqual({ batchItemFailures: [] });
    await expect.poll(() => verifiedDeliveries(webhookId), { timeout: 20_000 }).toBe(1);
    // the same event, after a first attempt that failed
    expect(await invoke('retryPlantAdded')).toEqual({ batchItemFailures: [] });
    await expect.poll(() => verifiedDeliveries(webhookId), { timeout: 20_000 }).toBe(2);
  });

  it("keepFailedStreamRecords hands back the sample notification, whose object npm start's bucket lacks", async () => {
    expect(await invoke('keepFailedStreamRecords')).toEqual({
      batchItemFailures: [{ itemIdentifier: '1' }],
    });
  });

  it('an event whose token has expired answers 401, as docs/local-development.md says', async () => {
    const { stdout: expired } = await run(
      process.execPath,
      [join(repoRoot, 'infra', 'local', 'token.ts'), '--ttl', '-60'],
      { cwd: repoRoot, env: shell({ PLANTS_LOCAL_DATA: service.dataDir }) },
    );
    const event = sample('listPlants');
    event.headers.authorization = `Bearer ${expired.trim()}`;
    const file = join(mkdtempSync(join(tmpdir(), 'plant-store-expired-')), 'listPlants.json');
    writeFileSync(file, JSON.stringify(event));
    expect(await invoke('listPlants', file)).toMatchObject({
      statusCode: 401,
      headers: { 'WWW-Authenticate': expect.stringContaining('invalid_token') },
    });
  });
});

describe('sls invoke local --stage local, without npm start', () => {
  it('stops before the function runs, and says to start npm start', async () => {
    const failed = await sls(
      [
        'invoke',
        'local',
        '--stage',
        'local',
        '-f',
        'listPlants',
        '--path',
        join(eventsDir, 'listPlants.json'),
      ],
      { PLANTS_LOCAL_DATA: mkdtempSync(join(tmpdir(), 'plant-store-no-start-')) },
    ).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(`${failed?.stdout}${failed?.stderr}`).toContain(
      'start it in another terminal (npm start)',
    );
  });
});
