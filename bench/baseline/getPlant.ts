// GET /plants/{id}, bare: the same GetItem, the owner compared, the version as ETag.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { callerOf, client, fail, pathId, plantOf, reply, table } from './common.ts';

export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const sub = await callerOf(event);
  if (!sub) return fail(401, 'Unauthorized');
  const id = pathId(event);
  if (id === undefined) return fail(400, 'Invalid id');
  try {
    const { Item } = await client.send(
      new GetCommand({ TableName: table, Key: { id }, ConsistentRead: true }),
    );
    if (!Item || Item.createdBy !== sub) return fail(404, 'Not found');
    return { ...reply(200, plantOf(Item)), headers: { ETag: `"${Item.version ?? 1}"` } };
  } catch {
    return fail(503, 'Unavailable');
  }
};
