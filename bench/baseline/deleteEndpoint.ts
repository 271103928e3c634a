// DELETE /webhooks/{id}, bare: the same transaction: the caller's endpoint deleted on the condition
// that it exists, with its count lowered.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { countKey, endpointKey } from '#lib/endpoints/keys.ts';
import { callerOf, client, endpointIdOf, fail, webhooksTable } from './common.ts';

export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const sub = await callerOf(event);
  if (!sub) return fail(401, 'Unauthorized');
  const id = endpointIdOf(event);
  if (id === undefined) return fail(400, 'Invalid id');
  try {
    await client.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: webhooksTable,
              Key: endpointKey(sub, id),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          {
            Update: {
              TableName: webhooksTable,
              Key: countKey(sub),
              UpdateExpression: 'ADD endpoints :minusOne',
              ExpressionAttributeValues: { ':minusOne': -1 },
            },
          },
        ],
      }),
    );
    return { statusCode: 204 };
  } catch (error) {
    return error instanceof TransactionCanceledException
      ? fail(404, 'Not found')
      : fail(503, 'Unavailable');
  }
};
