// GET /webhooks/{id}/attempts, bare: the same GetItem of the caller's endpoint, the limit checked by
// hand, then the same Query of its attempts of the last 14 days, newest first; no cursor.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { endpointKey } from '#lib/endpoints/keys.ts';
import { client, endpointIdOf, fail, floor, limitOf, reply, webhooksTable } from './common.ts';

const KEPT_MS = 14 * 24 * 3600 * 1000;

export const handler = floor(
  async (event, sub, id) => {
    const limit = limitOf(event);
    if (limit === undefined) return fail(400, 'Invalid limit');
    const { Item } = await client.send(
      new GetCommand({ TableName: webhooksTable, Key: endpointKey(sub, id), ConsistentRead: true }),
    );
    if (!Item) return fail(404, 'Not found');
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: webhooksTable,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :oldest AND :newest',
        ExpressionAttributeValues: {
          ':pk': `endpoint#${id}`,
          ':oldest': `attempt#${new Date(Date.now() - KEPT_MS).toISOString()}`,
          ':newest': 'attempt#\uffff',
        },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    const attempts = Items.map(({ webhookId, type, attempt, at, status, error, durationMs }) => {
      return { webhookId, type, attempt, at, status, error, durationMs };
    });
    return reply(200, attempts);
  },
  { id: endpointIdOf },
);
