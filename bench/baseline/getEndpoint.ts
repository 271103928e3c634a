// GET /webhooks/{id}, bare: the same GetItem of the caller's endpoint.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { endpointKey } from '#lib/endpoints/keys.ts';
import { client, endpointIdOf, endpointOf, fail, floor, reply, webhooksTable } from './common.ts';

export const handler = floor(
  async (_event, sub, id) => {
    const { Item } = await client.send(
      new GetCommand({ TableName: webhooksTable, Key: endpointKey(sub, id), ConsistentRead: true }),
    );
    return Item ? reply(200, endpointOf(Item)) : fail(404, 'Not found');
  },
  { id: endpointIdOf },
);
