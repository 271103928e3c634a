// Per-test tables in the shared DynamoDB Local, so tests never see each other's items.
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  PutCommand,
  ScanCommand,
} from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, type DynamoTarget } from '#lib/dynamo/client.ts';
import {
  dynamoCountSend,
  dynamoListAttempts,
  dynamoRecordAttempt,
  dynamoSentEvent,
  dynamoUncountSend,
} from '#lib/endpointDeliveries/dynamoStore.ts';
import type { AttemptStore } from '#lib/endpointDeliveries/store.ts';
import { dynamoSetEndpointHealth } from '#lib/endpoints/dynamoHealth.ts';
import { dynamoRotateEndpointSecret } from '#lib/endpoints/dynamoRotation.ts';
import {
  dynamoCreateEndpoint,
  dynamoDeleteEndpoint,
  dynamoGetEndpoint,
  dynamoListEndpoints,
  dynamoReplaceEndpoint,
} from '#lib/endpoints/dynamoStore.ts';
import type { EndpointStore } from '#lib/endpoints/store.ts';
import {
  dynamoCreate,
  dynamoDelete,
  dynamoGet,
  dynamoList,
  dynamoUpdate,
  type PlantTarget,
} from '#lib/plants/dynamoStore.ts';
import type { PlantStore } from '#lib/plants/store.ts';
import { localDynamoClient } from '../../infra/local/dynamoClient.ts';
import { ensureTable, type TableResource, tableStreamArn } from '../../infra/local/tables.ts';

export const localDocumentClient = (
  endpoint: string,
  overrides: Partial<Parameters<typeof createDocumentClient>[0]> = {},
) =>
  createDocumentClient({
    endpoint,
    region: 'us-east-1',
    maxAttempts: 3,
    connectTimeoutMs: 1000,
    requestTimeoutMs: 5000,
    ...overrides,
  });

/** A table of its own, as infra/dynamodb.yml defines `resource`, with what a test does to it. */
const createTable = async (endpoint: string, resource: TableResource, prefix: string) => {
  const name = `${prefix}-test-${crypto.randomUUID()}`;
  const client = localDynamoClient(endpoint);
  await ensureTable(client, resource, name);
  const documents = DynamoDBDocumentClient.from(client);
  /** Every item in the table, as stored. */
  const items = async () =>
    (await documents.send(new ScanCommand({ TableName: name, ConsistentRead: true }))).Items ?? [];
  return {
    name,
    client,
    documents,
    items,
    /** Write an item as it stands, behind the store's back (an item of an older version, say). */
    put: async (item: Record<string, unknown>) => {
      await documents.send(new PutCommand({ TableName: name, Item: item }));
    },
    drop: async () => {
      await client.send(new DeleteTableCommand({ TableName: name }));
      client.destroy();
    },
  };
};

export const createTestTable = async (endpoint: string) => {
  const { client, documents, ...table } = await createTable(endpoint, 'PlantsTable', 'plants');
  return {
    ...table,
    /** The table's stream (new images of every change). */
    streamArn: await tableStreamArn(client, table.name),
    /** Delete every item, keeping the table. */
    clear: async () => {
      for (const item of await table.items()) {
        await documents.send(new DeleteCommand({ TableName: table.name, Key: { id: item.id } }));
      }
    },
  };
};

/** A webhooks table (the callers' endpoints) of its own. */
export const createWebhooksTestTable = (endpoint: string) =>
  createTable(endpoint, 'WebhooksTable', 'webhooks');

/** Every operation of the DynamoDB store on one table (each function deploys only its own). */
export const createDynamoPlantStore = (target: PlantTarget): PlantStore => ({
  create: dynamoCreate(target),
  get: dynamoGet(target),
  list: dynamoList(target),
  update: dynamoUpdate(target),
  delete: dynamoDelete(target),
});

/** Every operation of the DynamoDB endpoint store on one table. */
export const createDynamoEndpointStore = (target: DynamoTarget): EndpointStore => ({
  create: dynamoCreateEndpoint(target),
  list: dynamoListEndpoints(target),
  get: dynamoGetEndpoint(target),
  replace: dynamoReplaceEndpoint(target),
  rotateSecret: dynamoRotateEndpointSecret(target),
  delete: dynamoDeleteEndpoint(target),
  setHealth: dynamoSetEndpointHealth(target),
});

/** Every operation of the DynamoDB attempt store on one table. */
export const createDynamoAttemptStore = (target: DynamoTarget): AttemptStore => ({
  record: dynamoRecordAttempt(target),
  list: dynamoListAttempts(target),
  event: dynamoSentEvent(target),
  countSend: dynamoCountSend(target),
  uncountSend: dynamoUncountSend(target),
});
