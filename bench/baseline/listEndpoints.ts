// GET /webhooks, bare: the same Query of the caller's partition, oldest first.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { callerPartition, ENDPOINT_PREFIX } from '#lib/endpoints/keys.ts';
import { client, endpointOf, floor, reply, webhooksTable } from './common.ts';

export const handler = floor(async (_event, sub) => {
  const { Items = [] } = await client.send(
    new QueryCommand({
      TableName: webhooksTable,
      KeyConditionExpression: 'pk = :caller AND begins_with(sk, :endpoint)',
      ExpressionAttributeValues: { ':caller': callerPartition(sub), ':endpoint': ENDPOINT_PREFIX },
      ConsistentRead: true,
    }),
  );
  // oldest first, then by id, as ours (and without ICU's collator, as ours)
  const key = ({ createdAt, id }: { createdAt: unknown; id: string }) => `${createdAt} ${id}`;
  return reply(
    200,
    Items.map(endpointOf).sort((a, b) => (key(a) < key(b) ? -1 : 1)),
  );
});
