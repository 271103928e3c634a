// PATCH /plants/{id}, bare: the merge patch checked by hand and the same conditional UpdateItem of
// the given fields only.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { callerOf, client, fail, pathId, plantOf, reply, table } from './common.ts';

export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const sub = await callerOf(event);
  if (!sub) return fail(401, 'Unauthorized');
  const id = pathId(event);
  if (id === undefined) return fail(400, 'Invalid id');
  let patch: { name?: unknown; tag?: unknown };
  try {
    patch = JSON.parse(event.body ?? '');
  } catch {
    return fail(400, 'Invalid JSON');
  }
  const { name, tag } = patch ?? {};
  if (
    (name !== undefined && typeof name !== 'string') ||
    (tag !== undefined && tag !== null && typeof tag !== 'string')
  ) {
    return fail(400, 'Invalid patch');
  }
  const set = ['version = if_not_exists(version, :one) + :one'];
  const values: Record<string, unknown> = { ':owner': sub, ':one': 1 };
  if (name !== undefined) {
    set.push('#name = :name');
    values[':name'] = name;
  }
  if (typeof tag === 'string') {
    set.push('tag = :tag');
    values[':tag'] = tag;
  }
  try {
    const { Attributes = {} } = await client.send(
      new UpdateCommand({
        TableName: table,
        Key: { id },
        ConditionExpression: 'attribute_exists(id) AND createdBy = :owner',
        UpdateExpression: `SET ${set.join(', ')}${tag === null ? ' REMOVE tag' : ''}`,
        ...(name === undefined ? {} : { ExpressionAttributeNames: { '#name': 'name' } }),
        ExpressionAttributeValues: values,
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
