// GET /webhooks, bare: the same Query of the caller's partition, oldest first.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { callerPartition, ENDPOINT_PREFIX } from '#lib/endpoints/keys.ts';
import { callerOf, client, endpointOf, fail, reply, webhooksTable } from './common.ts';

export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const sub = await callerOf(event);
  if (!sub) return fail(401, 'Unauthorized');
  try {
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: webhooksTable,
        KeyConditionExpression: 'pk = :caller AND begins_with(sk, :endpoint)',
        ExpressionAttributeValues: {
          ':caller': callerPartition(sub),
          ':endpoint': ENDPOINT_PREFIX,
        },
        ConsistentRead: true,
      }),
    );
    // oldest first, then by id, as ours (and without ICU's collator, as ours)
    const key = ({ createdAt, id }: { createdAt: unknown; id: string }) => `${createdAt} ${id}`;
    const endpoints = Items.map(endpointOf).sort((a, b) => (key(a) < key(b) ? -1 : 1));
    return reply(200, endpoints);
  } catch {
    return fail(503, 'Unavailable');
  }
};
