// The bench's peers (bench/peers/) answer as ours does before any of them is timed: each bundle,
// built as the bench builds it, against the same table and keys, on the same requests. A peer that
// answers differently fails here, naming the answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyResultV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { buildBundles } from '../../bench/bundles.ts';
import { peers, type Reference, references } from '../../bench/functions.ts';
import { repoRoot } from '../../infra/local/paths.ts';
import { createTestTable } from '../support/dynamodbTables.ts';
import { httpApiEvent } from '../support/events.ts';
import { type FaultProxy, startFaultProxy } from '../support/faultProxy.ts';
import { type JwksServer, startJwksServer } from '../support/jwksServer.ts';
import { jwksOf, makeKey, signToken } from '../support/tokens.ts';

const REFERENCES = Object.keys(references) as Reference[];
type Handler = (event: unknown, context: unknown) => Promise<APIGatewayProxyResultV2>;

const endpoint = inject('dynamodbEndpoint');

describe('the bench peers answer POST /plants as ours does', () => {
  let table: Awaited<ReturnType<typeof createTestTable>>;
  let proxy: FaultProxy;
  let jwks: JwksServer;
  let work: string;
  let token: string;
  const handlers = {} as Record<'ours' | Reference | (typeof peers)[number], Handler>;

  beforeAll(async () => {
    table = await createTestTable(endpoint);
    proxy = await startFaultProxy(endpoint);
    const key = await makeKey('ES256');
    jwks = await startJwksServer(await jwksOf(key));
    token = await signToken(key, { subject: 'alice' });
    // each bundle reads these at import, as a Lambda function does
    Object.assign(process.env, {
      PLANTS_TABLE: table.name,
      DYNAMODB_ENDPOINT: proxy.endpoint,
      AUTH_JWKS_URL: jwks.url,
    });
    work = mkdtempSync(join(tmpdir(), 'peers-'));
    const entries = {
      ours: join(repoRoot, 'handlers', 'createPlant.ts'),
      ...Object.fromEntries(
        REFERENCES.map((name) => [
          name,
          join(repoRoot, 'bench', 'baseline', 'observed', `${name}.ts`),
        ]),
      ),
      ...Object.fromEntries(
        peers.map((peer) => [peer, join(repoRoot, 'bench', 'peers', `${peer}.ts`)]),
      ),
    };
    const bundles = await buildBundles(work, entries);
    for (const [name, bundle] of Object.entries(bundles)) {
      handlers[name as keyof typeof handlers] = (await import(pathToFileURL(bundle).href)).handler;
    }
  });
  afterAll(async () => {
    await table.drop();
    await proxy.stop();
    await jwks.stop();
    rmSync(work, { recursive: true, force: true });
  });

  /** The answer as a client sees it: status, challenge, JSON body; the PutItems it cost; the lines. */
  const answer = async (name: keyof typeof handlers, body: string, authorization: string) => {
    proxy.reset();
    const written: string[] = [];
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const event = httpApiEvent({
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body,
    });
    const response = (await handlers[name](event, {
      awsRequestId: 'peers',
      functionName: 'peers',
      getRemainingTimeInMillis: () => 10_000,
    }).finally(() => stdout.mockRestore())) as APIGatewayProxyStructuredResultV2;
    const headers = Object.fromEntries(
      Object.entries(response.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    const parsed = JSON.parse(response.body ?? 'null') as Record<string, unknown>;
    return {
      status: response.statusCode,
      challenge: headers['www-authenticate'],
      // messages are each implementation's own; the shape and the plant are the contract
      body:
        typeof parsed?.message === 'string' ? { ...parsed, message: expect.any(String) } : parsed,
      putItems: proxy.attempts().filter((a) => a.operation === 'PutItem').length,
      lines: written
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    };
  };
  /** What a line says: its keys, and the metrics its EMF block publishes (but a first ColdStart). */
  const shapeOf = (line: Record<string, unknown> | undefined) => ({
    keys: Object.keys(line ?? {})
      .filter((key) => key !== 'ColdStart' && key !== '_aws')
      .sort(),
    metrics: (
      (line?._aws as { CloudWatchMetrics?: { Metrics: { Name: string }[] }[] } | undefined)
        ?.CloudWatchMetrics ?? []
    )
      .flatMap((directive) => directive.Metrics.map((metric) => metric.Name))
      .filter((name) => name !== 'ColdStart'),
  });

  /** Each request by what it asks, on plant `id`, and the status ours answers it with. */
  const requests = (id: number) => ({
    created: { status: 200, body: `{"id":${id},"name":"Monstera","tag":"indoor"}`, token: true },
    badBody: { status: 400, body: `{"id":"${id}","name":"Monstera"}`, token: true },
    noToken: { status: 401, body: `{"id":${id + 1},"name":"Monstera"}`, token: false },
    // the caller is checked before the body
    noTokenBadBody: { status: 401, body: `{"id":"${id + 1}"}`, token: false },
    conflict: { status: 409, body: `{"id":${id},"name":"Cactus"}`, token: true },
  });
  /** The same, and malformed JSON (the references' parser; the peers' is their framework's). */
  const withMalformed = (id: number) => ({
    ...requests(id),
    badJson: { status: 400, body: `{"id":${id + 2},`, token: true },
    noTokenBadJson: { status: 401, body: `{"id":`, token: false },
  });

  it.each(peers)('%s', async (peer) => {
    // ours and the peer each on ids of their own, the same requests in turn
    const ours = requests(1000 + peers.indexOf(peer) * 10);
    const theirs = requests(2000 + peers.indexOf(peer) * 10);
    for (const what of Object.keys(ours) as (keyof typeof ours)[]) {
      const bearer = (r: { token: boolean }) => (r.token ? `Bearer ${token}` : '');
      const expected = await answer('ours', ours[what].body, bearer(ours[what]));
      expect(expected).toMatchObject({
        status: ours[what].status,
        putItems: what === 'created' ? 1 : expected.putItems,
      });
      const { lines: _ours, ...client } = expected;
      const { lines: _theirs, ...actual } = await answer(
        peer,
        theirs[what].body,
        bearer(theirs[what]),
      );
      expect(actual, `${peer}'s ${what} answer (${theirs[what].body})`).toEqual(client);
    }
  });

  it.each(REFERENCES)(
    '%s answers as ours and writes by hand the line ours writes, key for key',
    async (reference) => {
      const ours = withMalformed(3000 + REFERENCES.indexOf(reference) * 200);
      const floor = withMalformed(3100 + REFERENCES.indexOf(reference) * 200);
      for (const what of Object.keys(ours) as (keyof typeof ours)[]) {
        const bearer = (r: { token: boolean }) => (r.token ? `Bearer ${token}` : '');
        const expected = await answer('ours', ours[what].body, bearer(ours[what]));
        const actual = await answer(reference, floor[what].body, bearer(floor[what]));
        expect(actual.status, what).toBe(expected.status);
        expect(actual.putItems, what).toBe(expected.putItems);
        // one line each, the same keys and the same count
        expect(expected.lines, what).toHaveLength(1);
        expect(actual.lines.map(shapeOf), what).toEqual(expected.lines.map(shapeOf));
      }
    },
  );
});
