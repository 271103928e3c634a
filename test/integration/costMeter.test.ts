// The bench's meter (bench/meter.ts) in front of the real DynamoDB Local and a stub SQS: it counts
// what each request is billed as (capacity units with the indexes' share, SQS's 64 KB chunks, the
// receiver's POSTs), and the requests still reach their services and answer as they would.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { CREATOR_TAG, creatorTagOf } from '#lib/plants/creatorTag.ts';
import { BY_CREATOR_INDEX, BY_CREATOR_TAG_INDEX } from '#lib/plants/dynamoStore.ts';
import { nothingMetered, startMeter } from '../../bench/meter.ts';
import { tableDefinition } from '../../infra/local/tables.ts';
import { createTestTable } from '../support/dynamodbTables.ts';

const endpoint = inject('dynamodbEndpoint');
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const UNUSED_SQS = 'http://127.0.0.1:9';

type Meter = Awaited<ReturnType<typeof startMeter>>;

/** DynamoDB's size of an item of string and number attributes: names and values, in bytes. */
const itemBytes = (item: Record<string, string | number>) =>
  Object.entries(item).reduce(
    (sum, [name, value]) =>
      sum + Buffer.byteLength(name) + (typeof value === 'string' ? Buffer.byteLength(value) : 3),
    0,
  );

/** A plant as lib/plants/dynamoStore.ts stores it, its notes making it about `bytes` long. */
const plantItem = (id: number, bytes: number, { tagged }: { tagged: boolean }) => {
  const base = {
    id,
    name: 'Monstera',
    createdAt: '2026-11-22T10:00:00.000Z',
    createdBy: 'alice',
    version: 1,
    ...(tagged ? { tag: 'indoor', [CREATOR_TAG]: creatorTagOf('alice', 'indoor') } : {}),
  };
  const item = { ...base, notes: '' };
  return { ...item, notes: 'n'.repeat(bytes - itemBytes(item)) };
};

describe('the meter in front of DynamoDB Local', () => {
  let table: Awaited<ReturnType<typeof createTestTable>>;
  let meter: Meter;
  let client: DynamoDBClient;
  let documents: DynamoDBDocumentClient;

  beforeEach(async () => {
    table = await createTestTable(endpoint);
    meter = await startMeter(endpoint, UNUSED_SQS);
    client = new DynamoDBClient({ endpoint: meter.url, region: 'us-east-1', credentials });
    documents = DynamoDBDocumentClient.from(client);
  });
  afterEach(async () => {
    client.destroy();
    await meter.stop();
    await table.drop();
  });

  it('is in front of a table with the two indexes the plants table has', () => {
    // the counts below assume these: a tagged plant is in both, an untagged one in the first only
    const indexes = tableDefinition('PlantsTable').GlobalSecondaryIndexes ?? [];
    expect(indexes.map((index) => index.IndexName).sort()).toEqual(
      [BY_CREATOR_INDEX, BY_CREATOR_TAG_INDEX].sort(),
    );
    expect(indexes.every((index) => index.Projection?.ProjectionType === 'ALL')).toBe(true);
  });

  it("counts a put of a tagged ~3 KB plant as the table's 3 units and each index's 3", async () => {
    const item = plantItem(1, 2600, { tagged: true });
    expect(itemBytes(item)).toBeGreaterThan(2048);
    expect(itemBytes(item)).toBeLessThan(2900);

    const answer = await documents.send(new PutCommand({ TableName: table.name, Item: item }));

    // the client asked for no capacity: the meter did, and passes DynamoDB's answer on unchanged
    expect(answer.$metadata.httpStatusCode).toBe(200);
    expect(await table.items()).toEqual([item]);
    expect(meter.take()).toEqual({
      dynamoCalls: { PutItem: 1 },
      dynamoWaits: 1,
      sqsWaits: 0,
      readUnits: 0,
      writeUnits: 3 + 3 + 3,
      indexWriteUnits: 3 + 3,
      sqsCalls: {},
      sqsRequests: 0,
      receiverPosts: 0,
      receiverBytes: 0,
    });
  });

  it('counts a put of an untagged plant as the table and the one index it is in', async () => {
    await documents.send(
      new PutCommand({ TableName: table.name, Item: plantItem(2, 2600, { tagged: false }) }),
    );

    expect(meter.take()).toMatchObject({ writeUnits: 3 + 3, indexWriteUnits: 3 });
  });

  it('counts a get of an item under 4 KB as half a unit, a consistent one as one', async () => {
    const item = plantItem(3, 3800, { tagged: true });
    await table.put(item);

    const eventual = await documents.send(
      new GetCommand({ TableName: table.name, Key: { id: 3 } }),
    );
    expect(eventual.Item).toEqual(item);
    expect(meter.take()).toMatchObject({ dynamoCalls: { GetItem: 1 }, readUnits: 0.5 });

    const consistent = await documents.send(
      new GetCommand({ TableName: table.name, Key: { id: 3 }, ConsistentRead: true }),
    );
    expect(consistent.Item).toEqual(item);
    expect(meter.take()).toMatchObject({
      dynamoCalls: { GetItem: 1 },
      readUnits: 1,
      writeUnits: 0,
      indexWriteUnits: 0,
    });
  });

  it('returns the counts on take, and starts again from nothing', async () => {
    await documents.send(
      new PutCommand({ TableName: table.name, Item: plantItem(4, 500, { tagged: true }) }),
    );
    await documents.send(new GetCommand({ TableName: table.name, Key: { id: 4 } }));
    await documents.send(new GetCommand({ TableName: table.name, Key: { id: 4 } }));

    expect(meter.take()).toMatchObject({
      dynamoCalls: { PutItem: 1, GetItem: 2 },
      dynamoWaits: 3,
      readUnits: 0.5 + 0.5,
      writeUnits: 1 + 1 + 1,
      indexWriteUnits: 1 + 1,
    });
    // a second take: nothing since the first
    expect(meter.take()).toEqual(nothingMetered());
  });
});

describe('the waits the meter counts', () => {
  let table: Awaited<ReturnType<typeof createTestTable>>;
  let meter: Meter;
  let documents: DynamoDBDocumentClient;

  beforeEach(async () => {
    table = await createTestTable(endpoint);
    meter = await startMeter(endpoint, UNUSED_SQS);
    documents = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: meter.url, region: 'us-east-1', credentials }),
    );
  });
  afterEach(async () => {
    documents.destroy();
    await meter.stop();
    await table.drop();
  });

  const put = (id: number) =>
    documents.send(
      new PutCommand({ TableName: table.name, Item: plantItem(id, 300, { tagged: false }) }),
    );

  it('counts a write whose condition failed as one write unit, as DynamoDB bills it at least', async () => {
    await put(1);
    meter.take();

    const refused = documents.send(
      new PutCommand({
        TableName: table.name,
        Item: plantItem(1, 300, { tagged: false }),
        ConditionExpression: 'attribute_not_exists(id)',
      }),
    );

    await expect(refused).rejects.toThrow(/conditional/i);
    expect(meter.take()).toMatchObject({ dynamoCalls: { PutItem: 1 }, writeUnits: 1 });
  });

  it('counts calls made together as one wait, and calls one after another as one each', async () => {
    await Promise.all([put(1), put(2), put(3)]);
    expect(meter.take()).toMatchObject({ dynamoCalls: { PutItem: 3 }, dynamoWaits: 1 });

    await put(4);
    await put(5);
    expect(meter.take()).toMatchObject({ dynamoCalls: { PutItem: 2 }, dynamoWaits: 2 });
  });
});

/** A stub SQS answering SendMessageBatch (JSON protocol) with each entry's MD5, as SQS does. */
const startStubSqs = async () => {
  const received: { target: string; entries: { Id: string; MessageBody: string }[] }[] = [];
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const input = JSON.parse(Buffer.concat(chunks).toString()) as {
      Entries: { Id: string; MessageBody: string }[];
    };
    received.push({ target: String(request.headers['x-amz-target']), entries: input.Entries });
    const Successful = input.Entries.map(({ Id, MessageBody }) => ({
      Id,
      MessageId: crypto.randomUUID(),
      MD5OfMessageBody: createHash('md5').update(MessageBody).digest('hex'),
    }));
    response
      .writeHead(200, { 'content-type': 'application/x-amz-json-1.0' })
      .end(JSON.stringify({ Successful, Failed: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
};

describe('the meter in front of SQS, and as the webhook receiver', () => {
  let sqs: Awaited<ReturnType<typeof startStubSqs>>;
  let meter: Meter;

  beforeEach(async () => {
    sqs = await startStubSqs();
    meter = await startMeter(endpoint, sqs.url);
  });
  afterEach(async () => {
    await meter.stop();
    await sqs.stop();
  });

  it('counts a batch of ~100 KB as one call and two billed requests (64 KB each)', async () => {
    const client = new SQSClient({ endpoint: meter.url, region: 'us-east-1', credentials });
    const Entries = Array.from({ length: 10 }, (_, i) => ({
      Id: `m${i}`,
      MessageBody: `${i}`.repeat(10_000),
    }));
    const answer = await client.send(
      new SendMessageBatchCommand({ QueueUrl: `${meter.url}/000000000000/webhooks`, Entries }),
    );
    client.destroy();

    // the SDK checked each MD5 the stub answered: the batch reached it as sent
    expect(answer.Successful?.map(({ Id }) => Id)).toEqual(Entries.map(({ Id }) => Id));
    expect(sqs.received).toEqual([{ target: 'AmazonSQS.SendMessageBatch', entries: Entries }]);
    expect(meter.take()).toEqual({
      dynamoCalls: {},
      dynamoWaits: 0,
      sqsWaits: 1,
      readUnits: 0,
      writeUnits: 0,
      indexWriteUnits: 0,
      sqsCalls: { SendMessageBatch: 1 },
      sqsRequests: 2,
      receiverPosts: 0,
      receiverBytes: 0,
    });
  });

  it('answers a POST to the receiver 204 and counts it with its bytes', async () => {
    const body = JSON.stringify({ type: 'plant.created', data: { notes: 'x'.repeat(1000) } });

    const answer = await fetch(meter.receiver, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });

    expect(answer.status).toBe(204);
    const { receiverPosts, receiverBytes, dynamoCalls, sqsCalls, sqsRequests } = meter.take();
    expect({ receiverPosts, dynamoCalls, sqsCalls, sqsRequests }).toEqual({
      receiverPosts: 1,
      dynamoCalls: {},
      sqsCalls: {},
      sqsRequests: 0,
    });
    expect(receiverBytes).toBeGreaterThanOrEqual(Buffer.byteLength(body));
    // nothing reached the SQS behind it
    expect(sqs.received).toEqual([]);
  });
});
