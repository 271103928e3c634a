// GET /plants/{id}, bare: the same GetItem, the owner compared, the version as ETag.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { client, fail, floor, pathId, plantOf, reply, table } from './common.ts';

export const handler = floor(
  async (_event, sub, id) => {
    const { Item } = await client.send(
      new GetCommand({ TableName: table, Key: { id }, ConsistentRead: true }),
    );
    if (!Item || Item.createdBy !== sub) return fail(404, 'Not found');
    return { ...reply(200, plantOf(Item)), headers: { ETag: `"${Item.version ?? 1}"` } };
  },
  { id: pathId },
);
