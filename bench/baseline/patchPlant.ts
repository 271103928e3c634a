// PATCH /plants/{id}, bare: the merge patch checked by hand and the same conditional UpdateItem of
// the given fields only.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { client, fail, floor, jsonOf, pathId, plantOf, reply, table } from './common.ts';

export const handler = floor(
  async (event, sub, id) => {
    const patch = jsonOf(event);
    if (!patch) return fail(400, 'Invalid JSON');
    const { name, tag } = patch;
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
  },
  { id: pathId, condition: [404, 'Not found'] },
);
