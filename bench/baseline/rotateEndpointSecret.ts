// POST /webhooks/{id}/secret, bare: the same GetItem, then the same UpdateItem of the secrets on
// the condition that they are still those read: the new one first, the others kept 24 hours or
// until they expire. A concurrent rotation is answered 409 rather than written again.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { endpointKey } from '#lib/endpoints/keys.ts';
import { client, endpointIdOf, fail, floor, newSecret, reply, webhooksTable } from './common.ts';

const DAY_MS = 24 * 3600 * 1000;

export const handler = floor(
  async (_event, sub, id) => {
    const Key = endpointKey(sub, id);
    const { Item } = await client.send(
      new GetCommand({ TableName: webhooksTable, Key, ConsistentRead: true }),
    );
    if (!Item) return fail(404, 'Not found');
    const seen = Item.secrets as { secret: string; expiresAt?: string }[];
    const now = Date.now();
    const keepOldUntil = new Date(now + DAY_MS).toISOString();
    const secret = newSecret();
    const kept = seen.flatMap(({ secret: old, expiresAt = keepOldUntil }) =>
      Date.parse(expiresAt) > now ? [{ secret: old, expiresAt }] : [],
    );
    await client.send(
      new UpdateCommand({
        TableName: webhooksTable,
        Key,
        UpdateExpression: 'SET secrets = :rotated',
        ConditionExpression: 'secrets = :seen',
        ExpressionAttributeValues: { ':rotated': [{ secret }, ...kept], ':seen': seen },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return reply(200, { secret });
  },
  { id: endpointIdOf, condition: [409, 'Conflict'] },
);
