// What DynamoDB Local holds before the functions run: the caller's plants, which list, get and
// update read, and its endpoints, pointing at the stubs' receiver, which the endpoints' list, get
// and update read and the webhooks to callers' endpoints deliver to, with one event sent to one of
// them and its attempts, which its attempts and resend read (seedStore); and before each run with
// the store, what that run needs (prepareRun).
import {
  type AttributeValue,
  BatchWriteItemCommand,
  type DynamoDBClient,
  PutItemCommand,
  QueryCommand,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { callerPartition, countKey, ENDPOINT_PREFIX, endpointKey } from '#lib/endpoints/keys.ts';
import { MAX_ENDPOINTS_PER_CALLER } from '#lib/endpoints/store.ts';
import { localStreamsClient } from '../infra/local/dynamoClient.ts';
import { tableStreamArn } from '../infra/local/tables.ts';
import { endpointId, SEEDED_ENDPOINTS } from './endpoint.mjs';
import { attemptItem, endpointItem, eventItem } from './endpointItems.ts';
import type { FunctionName } from './functions.ts';
import { CALLER, plantItem } from './plant.mjs';
import { PLANTS_TABLE, type Stack, WEBHOOKS_TABLE } from './stack.ts';

/** DynamoDB Local, and where the caller's endpoints point: the stubs' receiver. */
type Store = Pick<Stack, 'dynamoClient' | 'dynamoEndpoint' | 'stubs'>;

/** Sends `requests` to `table`, 25 a batch, until none is left unprocessed. */
const writeAll = async (client: DynamoDBClient, table: string, requests: WriteRequest[]) => {
  for (let i = 0; i < requests.length; i += 25) {
    let pending: BatchWriteItemCommand['input']['RequestItems'] = {
      [table]: requests.slice(i, i + 25),
    };
    while (pending && Object.keys(pending).length > 0) {
      ({ UnprocessedItems: pending } = await client.send(
        new BatchWriteItemCommand({ RequestItems: pending }),
      ));
    }
  }
};
const putAll = (client: DynamoDBClient, table: string, items: Record<string, AttributeValue>[]) =>
  writeAll(
    client,
    table,
    items.map((Item) => ({ PutRequest: { Item } })),
  );

const numbers = (first: number, count: number) =>
  Array.from({ length: count }, (_, i) => first + i);

const seedPlants = (client: DynamoDBClient, ids: number[]) =>
  putAll(client, PLANTS_TABLE, ids.map(plantItem));

/** The caller's endpoints numbered `ns`, its count left as it is (only a create reads it). */
const seedEndpoints = ({ dynamoClient, stubs }: Store, ns: number[]) =>
  putAll(
    dynamoClient,
    WEBHOOKS_TABLE,
    ns.map((n) => endpointItem(n, stubs.WEBHOOK_URL)),
  );

/** The caller's count of its endpoints set to `endpoints`. */
const setCount = async (client: DynamoDBClient, endpoints: number) => {
  const { pk, sk } = countKey(CALLER);
  await client.send(
    new PutItemCommand({
      TableName: WEBHOOKS_TABLE,
      Item: { pk: { S: pk }, sk: { S: sk }, endpoints: { N: String(endpoints) } },
    }),
  );
};

/**
 * The plants the list pages through, among them the one get and update read; the endpoints the
 * caller has (the most it may), among them the one the endpoints' get and update read.
 */
export const seedStore = async (store: Store) => {
  const client = store.dynamoClient;
  await seedPlants(client, numbers(1, 40));
  await seedEndpoints(store, numbers(1, SEEDED_ENDPOINTS));
  await setCount(client, SEEDED_ENDPOINTS);
  // endpoint 7's event and its attempts: more than a page, as the plants
  await putAll(client, WEBHOOKS_TABLE, [eventItem(), ...numbers(1, 21).map(attemptItem)]);
};

/**
 * The caller's endpoints back to those seedStore stored: the creates' and rotations' removed, the
 * update's undone.
 */
const onlySeededEndpoints = async (store: Store) => {
  const client = store.dynamoClient;
  const seeded = new Set<string | undefined>(
    numbers(1, SEEDED_ENDPOINTS).map((n) => endpointKey(CALLER, endpointId(n)).sk),
  );
  let ExclusiveStartKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(
      new QueryCommand({
        TableName: WEBHOOKS_TABLE,
        KeyConditionExpression: 'pk = :caller AND begins_with(sk, :endpoint)',
        ExpressionAttributeValues: {
          ':caller': { S: callerPartition(CALLER) },
          ':endpoint': { S: ENDPOINT_PREFIX },
        },
        ProjectionExpression: 'pk, sk',
        ExclusiveStartKey,
      }),
    );
    const others = (page.Items ?? []).filter((key) => !seeded.has(key.sk?.S));
    await writeAll(
      client,
      WEBHOOKS_TABLE,
      others.map((Key) => ({ DeleteRequest: { Key } })),
    );
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  await seedEndpoints(store, numbers(1, SEEDED_ENDPOINTS));
};

/**
 * A batch of the plants' stream as Lambda names one it gave up on: the insert of plant `id`, written
 * last, so that a read from it finds it alone (BENCH_STREAM_BATCH, bench/probe.mjs).
 */
const lastStreamBatch = async ({ dynamoClient, dynamoEndpoint }: Store, id: number) => {
  const streamArn = await tableStreamArn(dynamoClient, PLANTS_TABLE);
  const streams = localStreamsClient(dynamoEndpoint);
  try {
    const { StreamDescription } = await streams.send(
      new DescribeStreamCommand({ StreamArn: streamArn }),
    );
    // the open shard, which takes the insert
    const shardId = StreamDescription?.Shards?.find(
      ({ SequenceNumberRange }) => !SequenceNumberRange?.EndingSequenceNumber,
    )?.ShardId;
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: 'LATEST',
      }),
    );
    await seedPlants(dynamoClient, [id]);
    const { Records = [] } = await streams.send(new GetRecordsCommand({ ShardIterator }));
    const sequenceNumber = Records[0]?.dynamodb?.SequenceNumber;
    if (!shardId || !sequenceNumber) throw new Error(`no stream record of plant ${id}`);
    const batch = {
      shardId,
      startSequenceNumber: sequenceNumber,
      endSequenceNumber: sequenceNumber,
      batchSize: 1,
      streamArn,
    };
    return { BENCH_STREAM_BATCH: JSON.stringify(batch) };
  } finally {
    streams.destroy();
  }
};

/**
 * What a run with the store needs before it makes `count` invocations from each of `firstIds`: the
 * plants or endpoints its deletes take, the endpoints it rotates (each a rotation of its own: one
 * adds a secret that the next would compare and copy), pings or resends to (each of its own, with
 * the event a resend reads: an endpoint takes 10 a minute), room for its creates (a caller has at most
 * MAX_ENDPOINTS_PER_CALLER: the count set that many lower than the most, so that the run's last
 * create reaches it), and for the endpoints' list and the webhooks to them, the caller's seeded
 * endpoints only, as seeded (the creates and rotations of other runs left theirs in its partition,
 * the update changed one); for the stream's on-failure destination, a batch of the stream to read,
 * returned as what its probe is told.
 */
export const prepareRun = async (
  store: Store,
  kind: FunctionName,
  firstIds: number[],
  count: number,
) => {
  const blocks = firstIds.flatMap((first) => numbers(first, count));
  switch (kind) {
    case 'deletePlant':
      return seedPlants(store.dynamoClient, blocks);
    case 'deleteEndpoint':
    case 'rotateEndpointSecret':
    case 'pingEndpoint':
      return seedEndpoints(store, blocks);
    case 'resendEndpointEvent':
      await seedEndpoints(store, blocks);
      return putAll(
        store.dynamoClient,
        WEBHOOKS_TABLE,
        blocks.map((n) => eventItem(n)),
      );
    case 'createEndpoint':
      return setCount(store.dynamoClient, MAX_ENDPOINTS_PER_CALLER - blocks.length);
    case 'listEndpoints':
    case 'queueEndpointEvents':
    case 'deliverToEndpoint':
      await onlySeededEndpoints(store);
      return;
    case 'keepFailedStreamRecords':
      return lastStreamBatch(store, firstIds[0] ?? 1);
  }
};
