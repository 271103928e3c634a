// The tables for DynamoDB Local as infra/dynamodb.yml defines them, the stages' own; a table made by
// an older version gets what it lacks, as a stack update adds it to a deployed one.
import {
  type AttributeDefinition,
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  type KeySchemaElement,
  ResourceNotFoundException,
  type StreamViewType,
  type TableDescription,
  type TimeToLiveSpecification,
  UpdateTableCommand,
  type UpdateTableCommandInput,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { yamlOf } from './paths.ts';

export type TableResource = 'PlantsTable' | 'WebhooksTable';

interface TableDefinition {
  AttributeDefinitions: AttributeDefinition[];
  KeySchema: KeySchemaElement[];
  GlobalSecondaryIndexes?: GlobalSecondaryIndex[];
  StreamSpecification?: { StreamViewType: StreamViewType };
  TimeToLiveSpecification?: TimeToLiveSpecification;
}

/** A table's keys, indexes, stream and time to live as infra/dynamodb.yml defines them. */
export const tableDefinition = (resource: TableResource): TableDefinition => {
  const {
    AttributeDefinitions,
    KeySchema,
    GlobalSecondaryIndexes,
    StreamSpecification,
    TimeToLiveSpecification,
  }: TableDefinition = yamlOf('infra', 'dynamodb.yml').Resources[resource].Properties;
  return {
    AttributeDefinitions,
    KeySchema,
    // the indexes every stage has (not the one an upgrade keeps for a deploy, under Fn::If)
    ...(GlobalSecondaryIndexes && {
      GlobalSecondaryIndexes: GlobalSecondaryIndexes.filter((index) => index.IndexName),
    }),
    ...(StreamSpecification && { StreamSpecification }),
    ...(TimeToLiveSpecification && { TimeToLiveSpecification }),
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

/** Updates the table, and waits until it and its indexes are active again. */
const update = async (client: DynamoDBClient, input: UpdateTableCommandInput) => {
  await client.send(new UpdateTableCommand(input));
  await waitUntilActive(client, input.TableName ?? '');
};

/** The indexes of the definition that `table` lacks, added one at a time (as DynamoDB requires). */
const addMissingIndexes = async (
  client: DynamoDBClient,
  { TableName, GlobalSecondaryIndexes: present = [] }: TableDescription,
  { GlobalSecondaryIndexes = [], AttributeDefinitions }: TableDefinition,
) => {
  for (const index of GlobalSecondaryIndexes) {
    if (present.some(({ IndexName }) => IndexName === index.IndexName)) continue;
    await update(client, {
      TableName,
      AttributeDefinitions,
      GlobalSecondaryIndexUpdates: [{ Create: index }],
    });
  }
};

// Turns the stream on when defined and off or of another view type; a view type cannot change, so
// an older table's stream (new images only) is turned off first, as a deploy replaces it.
const enableStream = async (
  client: DynamoDBClient,
  { TableName, StreamSpecification: current }: TableDescription,
  { StreamSpecification }: TableDefinition,
) => {
  if (!StreamSpecification || current?.StreamViewType === StreamSpecification.StreamViewType)
    return;
  if (current?.StreamEnabled)
    await update(client, { TableName, StreamSpecification: { StreamEnabled: false } });
  await update(client, {
    TableName,
    StreamSpecification: { StreamEnabled: true, ...StreamSpecification },
  });
};

/** Turns the time to live on when the definition has it and the table's is off. */
const enableTimeToLive = async (
  client: DynamoDBClient,
  TableName: string,
  { TimeToLiveSpecification }: TableDefinition,
) => {
  if (!TimeToLiveSpecification) return;
  const { TimeToLiveDescription } = await client.send(new DescribeTimeToLiveCommand({ TableName }));
  if (TimeToLiveDescription?.TimeToLiveStatus === 'ENABLED') return;
  await client.send(new UpdateTimeToLiveCommand({ TableName, TimeToLiveSpecification }));
};

/** The table `tableName` as infra/dynamodb.yml defines `resource`. */
export const ensureTable = async (
  client: DynamoDBClient,
  resource: TableResource,
  tableName: string,
) => {
  const definition = tableDefinition(resource);
  const existing = await describe(client, tableName);
  if (existing) {
    await addMissingIndexes(client, existing, definition);
    await enableStream(client, existing, definition);
  } else {
    const { StreamSpecification, TimeToLiveSpecification: _setAfter, ...keys } = definition;
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        ...keys,
        ...(StreamSpecification && {
          StreamSpecification: { StreamEnabled: true, ...StreamSpecification },
        }),
      }),
    );
    await waitUntilActive(client, tableName);
  }
  await enableTimeToLive(client, tableName, definition);
};

export const tableStreamArn = async (client: DynamoDBClient, tableName: string) => {
  const streamArn = (await describe(client, tableName))?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${tableName} has no stream`);
  return streamArn;
};
