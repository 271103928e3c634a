// The service over real HTTP, as `npm start` runs it: serverless-offline with the bundled handler,
// DynamoDB Local, and tokens from `npm run token`.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEARER_REFUSALS } from '#lib/http/bearerAuth.ts';
import { localDynamoClient } from '../../infra/local/dynamoClient.ts';
import { freePort } from '../../infra/local/freePort.ts';
import { runningEnvPath } from '../../infra/local/paths.ts';
import { tableDefinition } from '../../infra/local/tables.ts';
import { type LocalService, spawnStart, startLocalService } from '../support/localService.ts';
import { expectResponseMatchesContract } from '../support/openapiResponses.ts';

let service: LocalService;
let token: string;

const post = async (body: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${service.baseUrl}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await response.text();
  // every answer must match the published contract (openapi.yaml), whatever the test checks next
  expectResponseMatchesContract('POST', '/plants', {
    status: response.status,
    headers: response.headers,
    body: text,
  });
  const answer = JSON.parse(text) as { [key: string]: unknown; message?: string };
  return { status: response.status, headers: response.headers, body: answer };
};

beforeAll(async () => {
  service = await startLocalService();
  token = (await service.token()).trim();
});
afterAll(() => service?.stop());

/** A GET through node:http, whose Host header fetch would not let a test choose. */
const getWithHost = (path: string, host: string) =>
  new Promise<number>((resolve, reject) => {
    const url = new URL(service.baseUrl);
    request({ host: url.hostname, port: url.port, path, headers: { host } }, (answer) => {
      answer.resume();
      resolve(answer.statusCode ?? 0);
    })
      .once('error', reject)
      .end();
  });

describe('the front of npm start (PORT)', () => {
  it('answers only as this machine, so that no other site reaches the token /docs shows', async () => {
    const { host } = new URL(service.baseUrl);
    expect(await getWithHost('/docs/', host)).toBe(200);
    expect(await getWithHost('/docs/', `localhost:${new URL(service.baseUrl).port}`)).toBe(200);
    // a DNS name of another site pointed here (DNS rebinding)
    expect(await getWithHost('/docs/', `evil.example:${new URL(service.baseUrl).port}`)).toBe(421);
    expect(await getWithHost('/plants', 'evil.example')).toBe(421);
  });

  it('stays up for a path that names no file of the page', async () => {
    for (const path of ['/docs/constructor', '/docs/__proto__', '/docs/toString']) {
      expect((await fetch(`${service.baseUrl}${path}`)).status, path).toBe(404);
    }
    expect((await fetch(`${service.baseUrl}/docs/`)).status).toBe(200);
  });
});

describe('npm run token', () => {
  it('prints one JWT and nothing else', async () => {
    const output = await service.token('--sub', 'carol', '--scope', 'plants:write');
    expect(output).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const payload = JSON.parse(Buffer.from(output.split('.')[1] ?? '', 'base64url').toString());
    expect(payload).toMatchObject({ sub: 'carol', scope: 'plants:write' });
  });
});

describe('POST /plants over HTTP', () => {
  it('creates a plant and answers the Plant', async () => {
    const response = await post('{"id":1,"name":"Monstera","tag":"indoor"}');

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({ name: 'Monstera', tag: 'indoor' });
    // the terminal: one line for the request, nothing of serverless-offline's own or the metrics'
    const deadline = Date.now() + 5000;
    while (!/POST \/plants 200/.test(service.output()) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(service.output()).toMatch(
      /^\d\d:\d\d:\d\d POST \/plants 200 \d+ ms created plant=1 caller=local-user trace=[0-9a-f]{8}$/m,
    );
    expect(service.output()).not.toMatch(/\(λ: |"_aws"|Function names exposed|┌/);
  });

  it('answers an identical retry with 200 and a different plant with the same id with 409', async () => {
    expect(await post('{"id":2,"name":"Fern"}')).toMatchObject({
      status: 200,
      body: { name: 'Fern' },
    });
    expect(await post('{"id":2,"name":"Fern"}')).toMatchObject({
      status: 200,
      body: { name: 'Fern' },
    });
    expect(await post('{"id":2,"name":"Cactus"}')).toMatchObject({
      status: 409,
      body: { error: 409 },
    });
  });

  it('answers 401 with a Bearer challenge without a token, and with an expired one', async () => {
    const missing = await post('{"id":3,"name":"Ivy"}', { authorization: '' });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="plants"');
    expect(missing.body).toEqual({ error: 401, message: expect.any(String) });

    const expired = await post('{"id":3,"name":"Ivy"}', {
      authorization: `Bearer ${(await service.token('--ttl', '-1')).trim()}`,
    });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe(
      'Bearer realm="plants", error="invalid_token"',
    );
    expect(expired.body.message).toMatch(/expired/);
  });

  it.each([
    ['invalid JSON', '{"id":4,', {}, 400],
    ['a string id', '{"id":"4","name":"Ivy"}', {}, 400],
    ['an id beyond the exact range', '{"id":9007199254740993,"name":"Ivy"}', {}, 400],
    ['a non-JSON content type', '{"id":4,"name":"Ivy"}', { 'content-type': 'text/plain' }, 415],
    ['a body over 64 KiB', JSON.stringify({ id: 4, name: 'x'.repeat(66_000) }), {}, 413],
  ])('answers %s with the Error body', async (_case, body, headers, status) => {
    const response = await post(body, headers);

    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({ error: status, message: expect.any(String) });
  });

  it('keeps the plants when the service is stopped and started again', async () => {
    await post('{"id":5,"name":"Calathea"}');
    await service.stop();

    service = await startLocalService(service.dataDir);
    token = (await service.token()).trim();

    expect(await post('{"id":5,"name":"Calathea"}')).toMatchObject({ status: 200 });
    expect(await post('{"id":5,"name":"Other"}')).toMatchObject({ status: 409 });
    // a whole stop and start (bundling the functions again): 20-30 s alone, more on a loaded machine
  }, 150_000);
});

describe('npm start', () => {
  it('opens its port only once the API answers, as a script waiting for the port expects', async () => {
    const [httpPort, lambdaPort, dynamoPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const dataDir = mkdtempSync(join(tmpdir(), 'plant-store-first-start-'));
    const started = spawnStart({
      PORT: String(httpPort),
      LAMBDA_PORT: String(lambdaPort),
      DYNAMODB_PORT: String(dynamoPort),
      // no keys, no table yet: the longest start
      PLANTS_LOCAL_DATA: dataDir,
    });
    /** What each POST /plants without a token met, from the start's first moment on. */
    const seen: string[] = [];
    try {
      const deadline = Date.now() + 170_000;
      while (seen.filter((answer) => answer.startsWith('401')).length < 3) {
        if (started.child.exitCode !== null || Date.now() > deadline)
          throw new Error(`npm start never answered on its port:\n${started.output()}`);
        try {
          const response = await fetch(`http://127.0.0.1:${httpPort}/plants`, { method: 'POST' });
          seen.push(
            `${response.status} ${response.headers.get('content-type')} ${await response.text()}`,
          );
        } catch (error) {
          seen.push(String((error as { cause?: { code?: string } }).cause?.code ?? error));
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    } finally {
      process.kill(-(started.child.pid ?? 0), 'SIGINT');
      await started.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
    // refused while it starts (so the polling began before the port opened), then the API's 401
    const refused = seen.filter((answer) => answer === 'ECONNREFUSED');
    expect(refused.length).toBeGreaterThan(0);
    expect(seen.slice(refused.length)).toEqual(
      Array(seen.length - refused.length).fill(
        `401 application/json; charset=utf-8 ${JSON.stringify({ error: 401, message: BEARER_REFUSALS.missing })}`,
      ),
    );
    // a first start bundles every function and makes the tables: as long as its own deadline
  }, 180_000);

  it('makes the webhooks table as infra/dynamodb.yml defines it, and gives the functions its name', async () => {
    const client = localDynamoClient(service.dynamodbEndpoint);
    const TableName = 'plant-store-local-webhooks';
    try {
      const { Table } = await client.send(new DescribeTableCommand({ TableName }));
      const { TimeToLiveDescription } = await client.send(
        new DescribeTimeToLiveCommand({ TableName }),
      );
      const { KeySchema, TimeToLiveSpecification } = tableDefinition('WebhooksTable');

      expect(Table?.KeySchema).toEqual(KeySchema);
      expect(TimeToLiveDescription).toEqual({
        TimeToLiveStatus: 'ENABLED',
        AttributeName: TimeToLiveSpecification?.AttributeName,
      });
    } finally {
      client.destroy();
    }
    const functionEnv = JSON.parse(readFileSync(runningEnvPath(service.dataDir), 'utf8'));
    expect(functionEnv).toMatchObject({ WEBHOOKS_TABLE: TableName });
  });

  it('says in one line what to do when its port is taken', async () => {
    const port = await freePort();
    const blocker = createServer().listen(port, '127.0.0.1');
    try {
      const started = spawnStart({ PORT: String(port) });
      expect(await started.exited).toBe(1);
      expect(started.output().trim()).toBe(
        `npm start: port ${port} is already in use (is another npm start running?): stop what uses it, or set PORT to a free port`,
      );
    } finally {
      blocker.close();
    }
  });

  it('says in one line how to install Java when it is missing', async () => {
    const [httpPort, lambdaPort, dynamoPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const started = spawnStart({
      // node only: no java on this PATH
      PATH: dirname(process.execPath),
      PORT: String(httpPort),
      LAMBDA_PORT: String(lambdaPort),
      DYNAMODB_PORT: String(dynamoPort),
    });

    expect(await started.exited).toBe(1);
    const lines = started.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^npm start: Java 17 or newer is needed.*apt-get install openjdk-17-jre-headless/,
    );
  });
});
