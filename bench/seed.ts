// Plants stored in DynamoDB Local before the functions run: the caller's, which list, get and
// update read, and the ones a delete run removes.
import {
  type AttributeValue,
  BatchWriteItemCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { PLANTS_TABLE } from './stack.ts';

/** The one caller: the subject of every token and the owner of every plant. */
export const CALLER = 'bench';

const plantItem = (id: number): Record<string, AttributeValue> => ({
  id: { N: String(id) },
  name: { S: 'Monstera' },
  tag: { S: 'indoor' },
  createdAt: { S: new Date(Date.UTC(2026, 10, 22, 10, 0, 0, id % 1000)).toISOString() },
  createdBy: { S: CALLER },
  version: { N: '1' },
});

export const seedPlants = async (client: DynamoDBClient, ids: number[]) => {
  for (let i = 0; i < ids.length; i += 25) {
    let pending: BatchWriteItemCommand['input']['RequestItems'] = {
      [PLANTS_TABLE]: ids.slice(i, i + 25).map((id) => ({ PutRequest: { Item: plantItem(id) } })),
    };
    while (pending && Object.keys(pending).length > 0) {
      ({ UnprocessedItems: pending } = await client.send(
        new BatchWriteItemCommand({ RequestItems: pending }),
      ));
    }
  }
};
