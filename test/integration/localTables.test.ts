// The local run's tables (infra/local/tables.ts) on a real DynamoDB Local: a plants table made by an
// earlier version, whose stream kept new images only, gets the stream infra/dynamodb.yml defines
// now (old images too: a deleted plant's owner is only in its old image).
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
} from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { localDynamoClient } from '../../infra/local/dynamoClient.ts';
import { ensureTable, tableDefinition } from '../../infra/local/tables.ts';

const client = localDynamoClient(inject('dynamodbEndpoint'));
const TableName = `plants-test-${crypto.randomUUID()}`;
afterEach(() => client.send(new DeleteTableCommand({ TableName })));

describe('the local plants table', () => {
  it("gets the defined stream when an earlier version's keeps new images only", async () => {
    const {
      StreamSpecification,
      TimeToLiveSpecification: _ttl,
      ...keys
    } = tableDefinition('PlantsTable');
    await client.send(
      new CreateTableCommand({
        TableName,
        ...keys,
        BillingMode: 'PAY_PER_REQUEST',
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
      }),
    );
    const before = (await client.send(new DescribeTableCommand({ TableName }))).Table;

    await ensureTable(client, 'PlantsTable', TableName);

    const after = (await client.send(new DescribeTableCommand({ TableName }))).Table;
    expect(after?.StreamSpecification).toEqual({
      StreamEnabled: true,
      StreamViewType: StreamSpecification?.StreamViewType,
    });
    expect(StreamSpecification?.StreamViewType).toBe('NEW_AND_OLD_IMAGES');
    expect(after?.LatestStreamArn).not.toBe(before?.LatestStreamArn);
  });
});
