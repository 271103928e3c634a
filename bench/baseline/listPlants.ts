// GET /plants, bare: the limit checked by hand, the same Query on the index, no cursor.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { client, fail, floor, limitOf, plantOf, reply, table } from './common.ts';

export const handler = floor(async (event, sub) => {
  const limit = limitOf(event);
  if (limit === undefined) return fail(400, 'Invalid limit');
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
});
