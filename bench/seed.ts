// Plants stored in DynamoDB Local before the functions run: the caller's, which list, get and
// update read, and the ones a delete run removes.
import { BatchWriteItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { plantItem } from './plant.mjs';
import { PLANTS_TABLE } from './stack.ts';

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
