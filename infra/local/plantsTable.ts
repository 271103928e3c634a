// The plants table for DynamoDB Local, made from its definition in infra/dynamodb.yml (keys,
// indexes, stream), so the local run and the tests use the table the stages deploy. A table made by an
// older version gets what it lacks, as a stack update adds it to a deployed one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AttributeDefinition,
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  type KeySchemaElement,
  ResourceNotFoundException,
  type StreamViewType,
  type TableDescription,
  UpdateTableCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { parse } from 'yaml';
import { repoRoot } from './paths.ts';

interface TableDefinition {
  AttributeDefinitions: AttributeDefinition[];
  KeySchema: KeySchemaElement[];
  GlobalSecondaryIndexes: GlobalSecondaryIndex[];
  StreamSpecification: { StreamViewType: StreamViewType };
}

/** The table's keys and indexes as infra/dynamodb.yml defines them (its CloudFormation tags aside). */
export const plantsTableDefinition = (): TableDefinition => {
  const template = parse(readFileSync(join(repoRoot, 'infra', 'dynamodb.yml'), 'utf8'), {
    logLevel: 'error',
  }) as { Resources: { PlantsTable: { Properties: TableDefinition } } };
  const { AttributeDefinitions, KeySchema, GlobalSecondaryIndexes, StreamSpecification } =
    template.Resources.PlantsTable.Properties;
  return {
    AttributeDefinitions,
    KeySchema,
    // the indexes every stage has (not the one an upgrade keeps for a deploy, under Fn::If)
    GlobalSecondaryIndexes: GlobalSecondaryIndexes.filter((index) => index.IndexName),
    StreamSpecification,
  };
};

const describe = async (client: DynamoDBClient, TableName: string) => {
  try {
    return (await client.send(new DescribeTableCommand({ TableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
};

const waitUntilActive = async (client: DynamoDBClient, TableName: string) => {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const table = await describe(client, TableName);
    const indexes = table?.GlobalSecondaryIndexes ?? [];
    if (table?.TableStatus === 'ACTIVE' && indexes.every((i) => i.IndexStatus === 'ACTIVE')) return;
    if (Date.now() > deadline) throw new Error(`table ${TableName} did not become active in 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** The indexes of the definition that `table` lacks, added one at a time (as DynamoDB requires). */
const addMissingIndexes = async (
  client: DynamoDBClient,
  table: TableDescription,
  definition: TableDefinition,
) => {
  const present = new Set((table.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of definition.GlobalSecondaryIndexes) {
    if (present.has(index.IndexName)) continue;
    await client.send(
      new UpdateTableCommand({
        TableName: table.TableName,
        AttributeDefinitions: definition.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
    await waitUntilActive(client, table.TableName ?? '');
  }
};

/** Turns the table's stream on when it is off. */
const enableStream = async (
  client: DynamoDBClient,
  table: TableDescription,
  { StreamSpecification }: TableDefinition,
) => {
  if (table.StreamSpecification?.StreamEnabled) return;
  await client.send(
    new UpdateTableCommand({
      TableName: table.TableName,
      StreamSpecification: { StreamEnabled: true, ...StreamSpecification },
    }),
  );
  await waitUntilActive(client, table.TableName ?? '');
};

/** The table as infra/dynamodb.yml defines it; returns its stream's ARN. */
export const ensurePlantsTable = async (client: DynamoDBClient, tableName: string) => {
  const definition = plantsTableDefinition();
  const existing = await describe(client, tableName);
  if (existing) {
    await addMissingIndexes(client, existing, definition);
    await enableStream(client, existing, definition);
  } else {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: definition.AttributeDefinitions,
        KeySchema: definition.KeySchema,
        GlobalSecondaryIndexes: definition.GlobalSecondaryIndexes,
        StreamSpecification: { StreamEnabled: true, ...definition.StreamSpecification },
      }),
    );
    await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: tableName });
    await waitUntilActive(client, tableName);
  }
  const table = await describe(client, tableName);
  if (!table?.LatestStreamArn) throw new Error(`table ${tableName} has no stream`);
  return { streamArn: table.LatestStreamArn };
};
