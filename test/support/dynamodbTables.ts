// Per-test tables in the shared DynamoDB Local, so tests never see each other's plants.
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  PutCommand,
  ScanCommand,
} from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '#lib/plants/dynamoClient.ts';
import {
  type DynamoTarget,
  dynamoCreate,
  dynamoDelete,
  dynamoGet,
  dynamoList,
  dynamoUpdate,
} from '#lib/plants/dynamoStore.ts';
import type { PlantStore } from '#lib/plants/store.ts';
import { localDynamoClient } from '../../infra/local/dynamoClient.ts';
import { ensurePlantsTable } from '../../infra/local/plantsTable.ts';

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

export const createTestTable = async (endpoint: string) => {
  const name = `plants-test-${crypto.randomUUID()}`;
  const client = localDynamoClient(endpoint);
  const { streamArn } = await ensurePlantsTable(client, name);
  const documents = DynamoDBDocumentClient.from(client);
  /** Every item in the table, as stored. */
  const items = async () =>
    (await documents.send(new ScanCommand({ TableName: name, ConsistentRead: true }))).Items ?? [];
  return {
    name,
    /** The table's stream (new images of every change). */
    streamArn,
    items,
    /** Write an item as it stands, behind the store's back (an item of an older version, say). */
    put: async (item: Record<string, unknown>) => {
      await documents.send(new PutCommand({ TableName: name, Item: item }));
    },
    /** Delete every item, keeping the table. */
    clear: async () => {
      for (const item of await items()) {
        await documents.send(new DeleteCommand({ TableName: name, Key: { id: item.id } }));
      }
    },
    drop: async () => {
      await client.send(new DeleteTableCommand({ TableName: name }));
      client.destroy();
    },
  };
};

/** Every operation of the DynamoDB store on one table (each function deploys only its own). */
export const createDynamoPlantStore = (target: DynamoTarget): PlantStore => ({
  create: dynamoCreate(target),
  get: dynamoGet(target),
  list: dynamoList(target),
  update: dynamoUpdate(target),
  delete: dynamoDelete(target),
});
