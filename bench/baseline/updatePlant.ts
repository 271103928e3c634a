// PUT /plants/{id}, bare: the body checked by hand and the same conditional UpdateItem.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { callerOf, client, fail, pathId, plantOf, reply, table } from './common.ts';

export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const sub = await callerOf(event);
  if (!sub) return fail(401, 'Unauthorized');
  const id = pathId(event);
  if (id === undefined) return fail(400, 'Invalid id');
  let body: { name?: unknown; tag?: unknown };
  try {
    body = JSON.parse(event.body ?? '');
  } catch {
    return fail(400, 'Invalid JSON');
  }
  const { name, tag } = body ?? {};
  if (typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string')) {
    return fail(400, 'Invalid plant');
  }
  try {
    const { Attributes = {} } = await client.send(
      new UpdateCommand({
        TableName: table,
        Key: { id },
        ConditionExpression: 'attribute_exists(id) AND createdBy = :owner',
        UpdateExpression: `SET #name = :name, version = if_not_exists(version, :one) + :one${
          tag === undefined ? ' REMOVE tag' : ', tag = :tag'
        }`,
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: {
          ':owner': sub,
          ':name': name,
          ':one': 1,
          ...(tag === undefined ? {} : { ':tag': tag }),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { ...reply(200, plantOf(Attributes)), headers: { ETag: `"${Attributes.version}"` } };
  } catch (error) {
    return error instanceof ConditionalCheckFailedException
      ? fail(404, 'Not found')
      : fail(503, 'Unavailable');
  }
};
