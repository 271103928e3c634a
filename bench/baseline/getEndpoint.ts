// GET /webhooks/{id}, bare: the same GetItem of the caller's endpoint.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { endpointKey } from '#lib/endpoints/keys.ts';
import {
  callerOf,
  client,
  endpointIdOf,
  endpointOf,
  fail,
  reply,
  webhooksTable,
} from './common.ts';

export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const sub = await callerOf(event);
  if (!sub) return fail(401, 'Unauthorized');
  const id = endpointIdOf(event);
  if (id === undefined) return fail(400, 'Invalid id');
  try {
    const { Item } = await client.send(
      new GetCommand({ TableName: webhooksTable, Key: endpointKey(sub, id), ConsistentRead: true }),
    );
    return Item ? reply(200, endpointOf(Item)) : fail(404, 'Not found');
  } catch {
    return fail(503, 'Unavailable');
  }
};
