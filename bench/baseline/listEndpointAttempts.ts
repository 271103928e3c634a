// GET /webhooks/{id}/attempts, bare: the same GetItem of the caller's endpoint, the limit checked by
// hand, then the same Query of its attempts of the last 14 days, newest first; no cursor.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { endpointKey } from '#lib/endpoints/keys.ts';
import { callerOf, client, endpointIdOf, fail, reply, webhooksTable } from './common.ts';

const KEPT_MS = 14 * 24 * 3600 * 1000;

export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const sub = await callerOf(event);
  if (!sub) return fail(401, 'Unauthorized');
  const id = endpointIdOf(event);
  if (id === undefined) return fail(400, 'Invalid id');
  const limit = Number(event.queryStringParameters?.limit ?? 20);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return fail(400, 'Invalid limit');
  try {
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
    return reply(
      200,
      Items.map(({ webhookId, type, attempt, at, status, error, durationMs }) => ({
        webhookId,
        type,
        attempt,
        at,
        status,
        error,
        durationMs,
      })),
    );
  } catch {
    return fail(503, 'Unavailable');
  }
};
