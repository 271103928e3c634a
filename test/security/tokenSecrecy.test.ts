import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  inject,
  it,
  vi,
} from 'vitest';
import type { VerifyToken } from '#lib/auth/tokenVerifier.ts';
import createPlant from '#lib/routes/createPlant.ts';
import { freePort } from '../../infra/local/freePort.ts';
import {
  createDynamoPlantStore,
  createTestTable,
  localDocumentClient,
} from '../support/dynamodbTables.ts';
import { httpApiEvent, invokeHandler } from '../support/events.ts';
import { loudTelemetry } from '../support/telemetry.ts';
import { makeKey, signToken, type TestKey, verifierTrusting } from '../support/tokens.ts';

const endpoint = inject('dynamodbEndpoint');

let table: Awaited<ReturnType<typeof createTestTable>>;
let key: TestKey;
let verifyToken: VerifyToken;
let written: string[];

beforeAll(async () => {
  table = await createTestTable(endpoint);
  key = await makeKey('RS256');
  verifyToken = await verifierTrusting(key);
});
afterAll(() => table.drop());

beforeEach(() => {
  written = [];
  const capture = (...args: unknown[]) => {
    written.push(
      args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '),
    );
  };
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    vi.spyOn(console, method).mockImplementation(capture);
  }
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  }
});
afterEach(() => {
  vi.restoreAllMocks();
});

const handlerOn = async (storeEndpoint: string, tableName: string) =>
  createPlant.with({
    ...loudTelemetry(),
    plantStore: createDynamoPlantStore({
      client: localDocumentClient(storeEndpoint, { maxAttempts: 1, requestTimeoutMs: 500 }),
      table: tableName,
    }),
    verifyToken,
  });

const send = async (handler: ReturnType<typeof createPlant.with>, token: string, body: object) => {
  const event = httpApiEvent({
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return invokeHandler(handler, event);
};

describe('the bearer token', () => {
  it('appears in no log line, response or stored item through every kind of answer', async () => {
    const token = await signToken(key, { subject: 'alice' });
    const tokens = [
      token,
      await signToken(key, { expiresIn: -3600, notBefore: -7200 }),
      await signToken(key, { audience: 'x' }),
    ];
    const handler = await handlerOn(endpoint, table.name);
    const unreachable = await handlerOn(`http://127.0.0.1:${await freePort()}`, table.name);
    const misconfigured = await handlerOn(endpoint, 'no-such-table');

    const responses = [
      await send(handler, token, { id: 1, name: 'Fern' }),
      await send(handler, token, { id: 1, name: 'Not a fern' }),
      await send(handler, tokens[1] ?? '', { id: 2, name: 'Fern' }),
      await send(handler, tokens[2] ?? '', { id: 3, name: 'Fern' }),
      await send(handler, token, { id: 4, name: 7 }),
      await send(unreachable, token, { id: 5, name: 'Fern' }),
      await send(misconfigured, token, { id: 6, name: 'Fern' }),
    ];

    expect(responses.map((r) => r.statusCode)).toEqual([200, 409, 401, 401, 400, 503, 500]);
    // a line (log and metric) for each request, so the search below has lines to search
    expect(written.length).toBeGreaterThanOrEqual(responses.length);
    const everything = [
      ...written,
      ...responses.map((r) => JSON.stringify(r)),
      JSON.stringify(await table.items()),
    ];
    for (const secret of tokens) {
      const signature = secret.split('.')[2] ?? secret;
      for (const text of everything) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(signature);
      }
    }
    expect(await table.items()).toEqual([expect.objectContaining({ id: 1, createdBy: 'alice' })]);
  });
});
