// DELETE /plants/{id}, bare: the same conditional DeleteItem.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { callerOf, client, fail, pathId, table } from './common.ts';

export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const sub = await callerOf(event);
  if (!sub) return fail(401, 'Unauthorized');
  const id = pathId(event);
  if (id === undefined) return fail(400, 'Invalid id');
  try {
    await client.send(
      new DeleteCommand({
        TableName: table,
        Key: { id },
        ConditionExpression: 'createdBy = :owner',
        ExpressionAttributeValues: { ':owner': sub },
      }),
    );
    return { statusCode: 204 };
  } catch (error) {
    return error instanceof ConditionalCheckFailedException
      ? fail(404, 'Not found')
      : fail(503, 'Unavailable');
  }
};
