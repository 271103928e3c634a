// The X-Ray subsegments as the daemon receives them (lib/xray.ts): a UDP socket of the test stands
// in for Lambda's daemon, and the calls are real: DynamoDB Local, the local SQS, HTTP receivers on
// this machine. The daemon's address is read as a container starts: each test loads lib/ afresh.
import { createSocket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
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
import { signingKeys } from '#lib/config/webhook.ts';
import { freePort } from '../../infra/local/freePort.ts';
import { createTestTable } from '../support/dynamodbTables.ts';
import { lambdaContext } from '../support/events.ts';
import { startTestSqs, type TestSqs } from '../support/localSqs.ts';
import { quietTelemetry } from '../support/telemetry.ts';
import { makeWebhookSecret } from '../support/webhookSecrets.ts';

const dynamodb = inject('dynamodbEndpoint');
const ROOT = '1-6b09b021-23f247119197615540a04eaa';
const PARENT = '53995c3f42cd8ad8';
const SAMPLED = `Root=${ROOT};Parent=${PARENT};Sampled=1;Lineage=a87bd80c:0`;
const HEADER = '{"format": "json", "version": 1}';

interface Subsegment {
  type: string;
  id: string;
  trace_id: string;
  parent_id: string;
  name: string;
  start_time: number;
  end_time: number;
  namespace?: string;
  aws?: Record<string, unknown>;
  http?: { request: { method: string; url: string }; response: { status?: number } };
  error?: boolean;
  fault?: boolean;
  throttle?: boolean;
  cause?: { exceptions: { id: string; message: string }[] };
}

// the daemon: every datagram it receives, its header line checked
const daemon = createSocket('udp4');
let datagrams: string[] = [];
daemon.on('message', (datagram) => datagrams.push(datagram.toString()));
await new Promise<void>((bound) => daemon.bind(0, '127.0.0.1', bound));
const daemonAddress = `127.0.0.1:${(daemon.address() as AddressInfo).port}`;

/** The subsegments received once `count` have come (within 2 s); each datagram's header checked. */
const subsegments = async (count: number) => {
  await vi.waitFor(() => expect(datagrams.length).toBeGreaterThanOrEqual(count), 2000);
  return datagrams.map((datagram) => {
    const [header, document = ''] = datagram.split('\n');
    expect(header).toBe(HEADER);
    return JSON.parse(document) as Subsegment;
  });
};
/** That nothing came, after a while to come in. */
const nothingReceived = async () => {
  await new Promise((wait) => setTimeout(wait, 300));
  expect(datagrams).toEqual([]);
};

/** lib/'s modules as a new container loads them, with the daemon at `address` (none: unset). */
const container = async (address: string | undefined) => {
  vi.resetModules();
  vi.stubEnv('AWS_XRAY_DAEMON_ADDRESS', address);
  return {
    ...(await import('#lib/dynamo/client.ts')),
    ...(await import('#lib/webhooks/sqsMessages.ts')),
    ...(await import('#lib/webhooks/delivery.ts')),
    ...(await import('#lib/ssrf/safePost.ts')),
    ...(await import('#lib/webhooks/batchResponse.ts')),
  };
};
type Container = Awaited<ReturnType<typeof container>>;
const clientOf = (lib: Container, endpoint = dynamodb, maxAttempts = 3) =>
  lib.createDocumentClient({
    endpoint,
    region: 'us-east-1',
    maxAttempts,
    connectTimeoutMs: 1000,
    requestTimeoutMs: 5000,
  });

/** Within the call's own time: started no sooner than `before`, ended by now, and in that order. */
const timedWithin = (subsegment: Subsegment | undefined, before: number) => {
  expect(subsegment?.start_time).toBeGreaterThanOrEqual(before / 1000);
  expect(subsegment?.end_time).toBeGreaterThan(subsegment?.start_time ?? Infinity);
  expect(subsegment?.end_time).toBeLessThanOrEqual(Date.now() / 1000);
};
const ofTheInvocation = {
  type: 'subsegment',
  id: expect.stringMatching(/^[0-9a-f]{16}$/),
  trace_id: ROOT,
  parent_id: PARENT,
};

// receivers: /ok answers 200 and /down 500, each after 20 ms
let receiver: Server;
let receiverUrl: string;
const keys = signingKeys(makeWebhookSecret()) ?? [];
const attempt = (lib: Container, url: string) =>
  lib.deliverOnce(
    { url, signingKeys: async () => keys, timeoutMs: 2000 },
    { webhookId: 'msg_1', body: '{}' },
  );

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    setTimeout(() => {
      response.statusCode = request.url?.startsWith('/ok') ? 200 : 500;
      response.end();
    }, 20);
  });
  await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', listening));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  daemon.close();
  await new Promise((closed) => receiver.close(closed));
});
beforeEach(() => {
  datagrams = [];
  vi.stubEnv('_X_AMZN_TRACE_ID', SAMPLED);
});
afterEach(() => vi.unstubAllEnvs());

describe('a sampled invocation sends each call as a subsegment of its trace', () => {
  let table: Awaited<ReturnType<typeof createTestTable>>;
  beforeAll(async () => {
    table = await createTestTable(dynamodb);
  });
  afterAll(() => table.drop());

  it('a DynamoDB call: its operation, table and time', async () => {
    const documents = clientOf(await container(daemonAddress));
    const before = Date.now();
    await documents.send(new PutCommand({ TableName: table.name, Item: { id: 1 } }));

    const [put] = await subsegments(1);
    expect(put).toEqual({
      ...ofTheInvocation,
      name: 'DynamoDB',
      namespace: 'aws',
      aws: {
        operation: 'PutItem',
        table_name: table.name,
        request_id: expect.any(String),
        retries: 0,
      },
      start_time: expect.any(Number),
      end_time: expect.any(Number),
    });
    timedWithin(put, before);
  });

  it("a DynamoDB call refused (a condition failed) is an error, with DynamoDB's reason", async () => {
    const documents = clientOf(await container(daemonAddress));
    await documents.send(new PutCommand({ TableName: table.name, Item: { id: 2 } }));
    const refused = new PutCommand({
      TableName: table.name,
      Item: { id: 2 },
      ConditionExpression: 'attribute_not_exists(id)',
    });
    await expect(documents.send(refused)).rejects.toThrow(/conditional request failed/);

    const [, failed] = await subsegments(2);
    expect(failed).toMatchObject({ name: 'DynamoDB', aws: { operation: 'PutItem' }, error: true });
    expect(failed?.fault).toBeUndefined();
    expect(failed?.cause?.exceptions[0]?.message).toMatch(/^ConditionalCheckFailedException/);
  });

  it("a transaction names its items' table", async () => {
    const documents = clientOf(await container(daemonAddress));
    const items = [{ Put: { TableName: table.name, Item: { id: 3 } } }];
    await documents.send(new TransactWriteCommand({ TransactItems: items }));

    const [transaction] = await subsegments(1);
    expect(transaction?.aws).toMatchObject({
      operation: 'TransactWriteItems',
      table_name: table.name,
    });
  });

  it('a DynamoDB call that reached no one is a fault, timed over its retries', async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const documents = clientOf(await container(daemonAddress), nobody, 2);
    const before = Date.now();
    const read = new GetCommand({ TableName: table.name, Key: { id: 1 } });
    await expect(documents.send(read)).rejects.toThrow();

    const [get] = await subsegments(1);
    expect(get).toMatchObject({
      ...ofTheInvocation,
      name: 'DynamoDB',
      aws: { operation: 'GetItem', table_name: table.name, retries: 1 },
      fault: true,
      cause: { exceptions: [{ id: expect.stringMatching(/^[0-9a-f]{16}$/) }] },
    });
    expect(get?.error).toBeUndefined();
    timedWithin(get, before);
  });

  describe('on the local SQS', () => {
    let sqs: TestSqs;
    beforeAll(async () => {
      sqs = await startTestSqs();
    });
    afterAll(() => sqs.stop());

    it('an SQS send: its operation and queue (the daemon named as "tcp:... udp:...")', async () => {
      const lib = await container(`tcp:127.0.0.1:1 udp:${daemonAddress}`);
      const client = lib.sqsClient('us-east-1', { endpoint: sqs.endpoint });
      const before = Date.now();
      await lib.sendMessages(client, sqs.url, [{ body: { plant: 1 } }]);

      const [send] = await subsegments(1);
      expect(send).toMatchObject({
        ...ofTheInvocation,
        name: 'SQS',
        namespace: 'aws',
        aws: { operation: 'SendMessageBatch', queue_url: sqs.url, retries: 0 },
      });
      expect(send?.aws?.table_name).toBeUndefined();
      timedWithin(send, before);
      client.destroy();
    });
  });

  it("the operator's webhook POST: its url's origin alone, and the receiver's status", async () => {
    const lib = await container(daemonAddress);
    const before = Date.now();
    expect(await attempt(lib, `${receiverUrl}/ok/secret-path?token=secret`)).toMatchObject({
      status: 200,
    });

    const [post] = await subsegments(1);
    expect(post).toMatchObject({
      ...ofTheInvocation,
      name: '127.0.0.1',
      namespace: 'remote',
      http: {
        request: { method: 'POST', url: new URL(receiverUrl).origin },
        response: { status: 200 },
      },
      error: false,
    });
    expect(post?.fault).toBeUndefined();
    expect(JSON.stringify(post)).not.toContain('secret');
    // the receiver answered after 20 ms
    expect(((post?.end_time ?? 0) - (post?.start_time ?? 0)) * 1000).toBeGreaterThanOrEqual(19);
    timedWithin(post, before);
  });

  it("a receiver's 500 is a fault; a receiver that is not there, a fault with why", async () => {
    const lib = await container(daemonAddress);
    expect(await attempt(lib, `${receiverUrl}/down`)).toMatchObject({ status: 500 });
    const nobody = `http://127.0.0.1:${await freePort()}/hook`;
    expect(await attempt(lib, nobody)).toEqual({ outcome: 'unreachable', reason: 'ECONNREFUSED' });

    const [down, refused] = await subsegments(2);
    expect(down).toMatchObject({ http: { response: { status: 500 } }, fault: true });
    expect(refused).toMatchObject({
      http: { request: { url: new URL(nobody).origin }, response: {} },
      fault: true,
      cause: { exceptions: [{ message: 'ECONNREFUSED' }] },
    });
    expect(refused?.http?.response.status).toBeUndefined();
  });

  it("a caller's endpoint: the POST, and in it the lookup, the connect and the answer", async () => {
    const lib = await container(daemonAddress);
    const port = new URL(receiverUrl).port;
    const before = Date.now();
    const answer = await lib.postToEndpoint(
      { url: `http://localhost:${port}/ok?key=secret`, body: '{}', headers: {}, timeoutMs: 2000 },
      { allowPrivate: true },
    );
    expect(answer).toEqual({ status: 200 });

    const received = await subsegments(4);
    const post = received.find(({ name }) => name === 'localhost');
    expect(post).toMatchObject({
      ...ofTheInvocation,
      namespace: 'remote',
      http: { request: { url: `http://localhost:${port}` }, response: { status: 200 } },
    });
    const phases = received.filter(({ parent_id }) => parent_id === post?.id);
    expect(phases.map(({ name }) => name)).toEqual(['lookup', 'connect', 'answer']);
    const [lookup, connect, waited] = phases;
    for (const phase of phases) {
      expect(phase.trace_id).toBe(ROOT);
      expect(phase.start_time).toBeGreaterThanOrEqual(post?.start_time ?? Infinity);
      expect(phase.end_time).toBeLessThanOrEqual(post?.end_time ?? 0);
    }
    expect(connect?.start_time).toBeGreaterThanOrEqual(lookup?.end_time ?? Infinity);
    expect(waited?.start_time).toBeGreaterThanOrEqual(connect?.end_time ?? Infinity);
    // the receiver answered after 20 ms
    expect(((waited?.end_time ?? 0) - (waited?.start_time ?? 0)) * 1000).toBeGreaterThanOrEqual(19);
    timedWithin(post, before);
  });

  it("a queued message's wait: from its send to the invocation that takes it", async () => {
    const lib = await container(daemonAddress);
    const sentAt = Date.now() - 5000;
    const consume = lib.queueConsumer(quietTelemetry(), 'test message', async () => {});
    const message = { messageId: 'm1', attributes: { SentTimestamp: String(sentAt) } };
    await consume({ Records: [message] } as unknown as SQSEvent, lambdaContext());

    const [wait] = await subsegments(1);
    expect(wait).toMatchObject({
      ...ofTheInvocation,
      name: 'queue wait',
      start_time: sentAt / 1000,
    });
    expect(wait?.end_time).toBeGreaterThanOrEqual(sentAt / 1000 + 5);
    expect(wait?.end_time).toBeLessThanOrEqual(Date.now() / 1000);
  });
});

describe('nothing is sent', () => {
  const calls = async (lib: Container) => {
    await clientOf(lib)
      .send(new GetCommand({ TableName: 'no-such-table', Key: { id: 1 } }))
      .catch(() => {});
    expect(await attempt(lib, `${receiverUrl}/ok`)).toMatchObject({ status: 200 });
  };

  it('from an invocation not sampled', async () => {
    vi.stubEnv('_X_AMZN_TRACE_ID', `Root=${ROOT};Parent=${PARENT};Sampled=0`);
    await calls(await container(daemonAddress));
    await nothingReceived();
  });

  it('where Lambda set no trace header (the local run)', async () => {
    vi.stubEnv('_X_AMZN_TRACE_ID', undefined);
    await calls(await container(daemonAddress));
    await nothingReceived();
  });

  it('where no daemon is set', async () => {
    await calls(await container(undefined));
    await nothingReceived();
  });

  it('and a daemon that cannot be sent to fails no call', async () => {
    // a port out of range throws as it is sent; a host that does not resolve fails later
    for (const address of ['127.0.0.1:70000', 'daemon.invalid:2000'])
      await calls(await container(address));
    await nothingReceived();
  });
});
