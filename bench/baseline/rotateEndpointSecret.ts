// POST /webhooks/{id}/secret, bare: the same GetItem, then the same UpdateItem of the secrets on
// the condition that they are still those read: the new one first, the others kept 24 hours or
// until they expire. A concurrent rotation is answered 409 rather than written again.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { endpointKey } from '#lib/endpoints/keys.ts';
import { callerOf, client, endpointIdOf, fail, newSecret, reply, webhooksTable } from './common.ts';

const DAY_MS = 24 * 3600 * 1000;

export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const sub = await callerOf(event);
  if (!sub) return fail(401, 'Unauthorized');
  const id = endpointIdOf(event);
  if (id === undefined) return fail(400, 'Invalid id');
  const Key = endpointKey(sub, id);
  try {
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
  } catch (error) {
    return error instanceof ConditionalCheckFailedException
      ? fail(409, 'Conflict')
      : fail(503, 'Unavailable');
  }
};
