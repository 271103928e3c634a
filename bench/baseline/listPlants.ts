// GET /plants, bare: the limit checked by hand, the same Query on the index, no cursor.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { callerOf, client, fail, plantOf, reply, table } from './common.ts';

export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const sub = await callerOf(event);
  if (!sub) return fail(401, 'Unauthorized');
  const limit = Number(event.queryStringParameters?.limit ?? 20);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return fail(400, 'Invalid limit');
  try {
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: table,
        IndexName: 'plantsByCreator',
        KeyConditionExpression: 'createdBy = :owner',
        ExpressionAttributeValues: { ':owner': sub },
        Limit: limit + 1,
      }),
    );
    return reply(200, Items.slice(0, limit).map(plantOf));
  } catch {
    return fail(503, 'Unavailable');
  }
};
