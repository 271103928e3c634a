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
  callerPartition,
  countKey,
  ENDPOINT_PREFIX,
  endpointKey,
  sendsKey,
} from '#lib/endpoints/keys.ts';
import { MAX_ENDPOINTS_PER_CALLER } from '#lib/endpoints/store.ts';
import { attemptItem, endpointItem, eventItem } from './endpointItems.ts';
import type { FunctionName } from './functions.ts';
import { CALLER, endpointId, plantItem, SEEDED_ENDPOINTS } from './requests.mjs';
import { PLANTS_TABLE, type Stack, WEBHOOKS_TABLE } from './stack.ts';

/** DynamoDB Local, and where the caller's endpoints point: the stubs' receiver. */
type Store = Pick<Stack, 'dynamoClient'> & { stubs: { WEBHOOK_URL: string } };

/** Sends `requests` to `table`, 25 a batch, until none is left unprocessed. */
const writeAll = async (client: DynamoDBClient, table: string, requests: WriteRequest[]) => {
  for (let i = 0; i < requests.length; i += 25) {
    let pending: Record<string, WriteRequest[]> | undefined = {
      [table]: requests.slice(i, i + 25),
    };
    while (pending && Object.keys(pending).length > 0)
      ({ UnprocessedItems: pending } = await client.send(
        new BatchWriteItemCommand({ RequestItems: pending }),
      ));
  }
};
type Item = Record<string, AttributeValue>;
const asPut = (Item: Item) => ({ PutRequest: { Item } });
const putAll = (client: DynamoDBClient, table: string, items: Item[]) =>
  writeAll(client, table, items.map(asPut));
const numbers = (first: number, count: number) =>
  Array.from({ length: count }, (_, i) => first + i);
const seedPlants = (client: DynamoDBClient, ids: number[]) =>
  putAll(client, PLANTS_TABLE, ids.map(plantItem));
/** The caller's endpoints numbered `ns`, its count left as it is (only a create reads it). */
const seedEndpoints = ({ dynamoClient, stubs }: Store, ns: number[]) => {
  const items = ns.map((n) => endpointItem(n, stubs.WEBHOOK_URL));
  return putAll(dynamoClient, WEBHOOKS_TABLE, items);
};
/**
 * The caller's count of pings and resends (10 a minute, all its endpoints) for the next two hours,
 * started far below none: a run's every send is counted by the same conditional UpdateItem, none
 * refused.
 */
const roomToSend = (client: DynamoDBClient) => {
  const now = Math.floor(Date.now() / 60_000);
  const minutes = numbers(now, 120).map((minute) => {
    const { pk, sk } = sendsKey(CALLER, new Date(minute * 60_000).toISOString());
    return { pk: { S: pk }, sk: { S: sk }, sends: { N: '-1000000000' } };
  });
  return putAll(client, WEBHOOKS_TABLE, minutes);
};
const setCount = async (client: DynamoDBClient, endpoints: number) => {
  const { pk, sk } = countKey(CALLER);
  const Item = { pk: { S: pk }, sk: { S: sk }, endpoints: { N: String(endpoints) } };
  await client.send(new PutItemCommand({ TableName: WEBHOOKS_TABLE, Item }));
};

/** The plants the list pages through and the caller's endpoints (the most it may), as read. */
export const seedStore = async (store: Store) => {
  const client = store.dynamoClient;
  await seedPlants(client, numbers(1, 40));
  await seedEndpoints(store, numbers(1, SEEDED_ENDPOINTS));
  await setCount(client, SEEDED_ENDPOINTS);
  // endpoint 7's event and its attempts: more than a page, as the plants
  await putAll(client, WEBHOOKS_TABLE, [eventItem(), ...numbers(1, 21).map(attemptItem)]);
};

/** The caller's endpoints as seedStore stored them: others removed, the update's undone. */
const onlySeededEndpoints = async (store: Store) => {
  const client = store.dynamoClient;
  const seeded = new Set<string | undefined>(
    numbers(1, SEEDED_ENDPOINTS).map((n) => endpointKey(CALLER, endpointId(n)).sk),
  );
  let ExclusiveStartKey: Item | undefined;
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
    const deletes = others.map((Key) => ({ DeleteRequest: { Key } }));
    await writeAll(client, WEBHOOKS_TABLE, deletes);
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  await seedEndpoints(store, numbers(1, SEEDED_ENDPOINTS));
};

/**
 * What a run with the store needs before `count` invocations from each of `ids`: the plants or
 * endpoints it deletes, rotates (a rotation adds a secret the next would copy), pings or resends to
 * (with room in the caller's 10 a minute), each its own; room for its creates; the seeded endpoints only, for the
 * list and the webhooks to them.
 */
export const prepareRun = async (
  store: Store,
  kind: FunctionName,
  ids: number[],
  count: number,
) => {
  const blocks = ids.flatMap((first) => numbers(first, count));
  switch (kind) {
    case 'deletePlant':
      return seedPlants(store.dynamoClient, blocks);
    case 'deleteEndpoint':
    case 'rotateEndpointSecret':
      return seedEndpoints(store, blocks);
    case 'pingEndpoint':
      await roomToSend(store.dynamoClient);
      return seedEndpoints(store, blocks);
    case 'resendEndpointEvent':
      await Promise.all([seedEndpoints(store, blocks), roomToSend(store.dynamoClient)]);
      return putAll(store.dynamoClient, WEBHOOKS_TABLE, blocks.map(eventItem));
    case 'createEndpoint':
      return setCount(store.dynamoClient, MAX_ENDPOINTS_PER_CALLER - blocks.length);
    case 'listEndpoints':
    case 'queueEndpointEvents':
    case 'deliverToEndpoint':
      return onlySeededEndpoints(store);
  }
};
