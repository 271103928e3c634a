// DELETE /plants/{id}, bare: the same conditional DeleteItem.
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { client, floor, pathId, table } from './common.ts';

export const handler = floor(
  async (_event, sub, id) => {
    await client.send(
      new DeleteCommand({
        TableName: table,
        Key: { id },
        ConditionExpression: 'createdBy = :owner',
        ExpressionAttributeValues: { ':owner': sub },
      }),
    );
    return { statusCode: 204 };
  },
  { id: pathId, condition: [404, 'Not found'] },
);
