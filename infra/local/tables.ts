// The tables for DynamoDB Local as infra/dynamodb.yml defines them, the stages' own; a table made by
// an older version gets what it lacks, as a stack update adds it to a deployed one.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  ResourceNotFoundException,
  type StreamViewType,
  type TimeToLiveSpecification,
  UpdateTableCommand,
  type UpdateTableCommandInput,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { yamlOf } from './paths.ts';

export type TableResource = 'PlantsTable' | 'WebhooksTable';

type TableDefinition = Pick<
  CreateTableCommandInput,
  'AttributeDefinitions' | 'KeySchema' | 'GlobalSecondaryIndexes'
> & {
  StreamSpecification?: { StreamViewType: StreamViewType };
  TimeToLiveSpecification?: TimeToLiveSpecification;
};

/** A table's keys, indexes, stream and time to live as infra/dynamodb.yml defines them. */
export const tableDefinition = (resource: TableResource): TableDefinition => {
  const { Properties: table } = yamlOf('infra', 'dynamodb.yml').Resources[resource];
  const { AttributeDefinitions, KeySchema, StreamSpecification, TimeToLiveSpecification } = table;
  // the indexes every stage has (not the one an upgrade keeps for a deploy, under Fn::If)
  const GlobalSecondaryIndexes = table.GlobalSecondaryIndexes?.filter(
    (index: GlobalSecondaryIndex) => index.IndexName,
  );
  const keys = { AttributeDefinitions, KeySchema, GlobalSecondaryIndexes };
  return { ...keys, StreamSpecification, TimeToLiveSpecification };
};

const describe = async (client: DynamoDBClient, TableName: string) => {
  try {
    return (await client.send(new DescribeTableCommand({ TableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
};

/** Waits until the table and its indexes are active (again). */
const waitUntilActive = async (client: DynamoDBClient, TableName: string) => {
  for (const deadline = Date.now() + 60_000; ; await sleep(100)) {
    const table = await describe(client, TableName);
    const indexes = table?.GlobalSecondaryIndexes ?? [];
    if (table?.TableStatus === 'ACTIVE' && indexes.every((i) => i.IndexStatus === 'ACTIVE')) return;
    if (Date.now() > deadline) throw new Error(`table ${TableName} did not become active in 60 s`);
  }
};

const update = async (client: DynamoDBClient, input: UpdateTableCommandInput) => {
  await client.send(new UpdateTableCommand(input));
  await waitUntilActive(client, input.TableName ?? '');
};

/** The table `TableName` as infra/dynamodb.yml defines `resource`. */
export const ensureTable = async (
  client: DynamoDBClient,
  resource: TableResource,
  TableName: string,
) => {
  const { StreamSpecification, TimeToLiveSpecification, ...keys } = tableDefinition(resource);
  const stream = StreamSpecification && { StreamEnabled: true, ...StreamSpecification };
  const existing = await describe(client, TableName);
  if (!existing) {
    const billing = { BillingMode: 'PAY_PER_REQUEST' } as const;
    await client.send(
      new CreateTableCommand({ TableName, ...billing, ...keys, StreamSpecification: stream }),
    );
    await waitUntilActive(client, TableName);
  } else {
    // the indexes it lacks, added one at a time (as DynamoDB requires)
    const { AttributeDefinitions, GlobalSecondaryIndexes = [] } = keys;
    const present = new Set(existing.GlobalSecondaryIndexes?.map(({ IndexName }) => IndexName));
    for (const Create of GlobalSecondaryIndexes) {
      const GlobalSecondaryIndexUpdates = [{ Create }];
      if (!present.has(Create.IndexName))
        await update(client, { TableName, AttributeDefinitions, GlobalSecondaryIndexUpdates });
    }
    // a view type cannot change, so an older table's stream (new images only) is turned off
    // first, as a deploy replaces it
    const current = existing.StreamSpecification;
    if (stream && current?.StreamViewType !== stream.StreamViewType) {
      if (current?.StreamEnabled)
        await update(client, { TableName, StreamSpecification: { StreamEnabled: false } });
      await update(client, { TableName, StreamSpecification: stream });
    }
  }
  if (!TimeToLiveSpecification) return;
  const { TimeToLiveDescription } = await client.send(new DescribeTimeToLiveCommand({ TableName }));
  if (TimeToLiveDescription?.TimeToLiveStatus === 'ENABLED') return;
  await client.send(new UpdateTimeToLiveCommand({ TableName, TimeToLiveSpecification }));
};

export const tableStreamArn = async (client: DynamoDBClient, tableName: string) => {
  const streamArn = (await describe(client, tableName))?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${tableName} has no stream`);
  return streamArn;
};
