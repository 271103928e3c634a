// PUT /plants/{id}, bare: the body checked by hand and the same conditional UpdateItem.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { client, fail, floor, jsonOf, pathId, plantOf, reply, table } from './common.ts';

export const handler = floor(
  async (event, sub, id) => {
    const body = jsonOf(event);
    if (!body) return fail(400, 'Invalid JSON');
    const { name, tag } = body;
    if (typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string')) {
      return fail(400, 'Invalid plant');
    }
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
  },
  { id: pathId, condition: [404, 'Not found'] },
);
