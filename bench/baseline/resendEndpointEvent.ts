// POST /webhooks/{id}/attempts/{webhookId}/resend, bare: the same GetItem of the caller's endpoint
// and of the event and UpdateItem of the endpoint's count, then the same SendMessageBatch of it to
// the endpoint-deliveries queue.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { endpointKey } from '#lib/endpoints/keys.ts';
import { callerOf, client, endpointIdOf, fail, webhooksTable } from './common.ts';
import { counted, queue } from './queue.ts';

export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const sub = await callerOf(event);
  if (!sub) return fail(401, 'Unauthorized');
  const id = endpointIdOf(event);
  const webhookId = event.pathParameters?.webhookId ?? '';
  if (id === undefined || !/^msg_[\w-]{1,64}$/.test(webhookId)) return fail(400, 'Invalid id');
  try {
    const [{ Item: endpoint }, { Item: sent }] = await Promise.all([
      client.send(
        new GetCommand({
          TableName: webhooksTable,
          Key: endpointKey(sub, id),
          ConsistentRead: true,
        }),
      ),
      client.send(
        new GetCommand({
          TableName: webhooksTable,
          Key: { pk: `endpoint#${id}`, sk: `event#${webhookId}` },
        }),
      ),
    ]);
    if (!endpoint) return fail(404, 'Not found');
    if (!(await counted(id))) return fail(429, 'Too many');
    if (!sent || Number(sent.expiresAt) * 1000 <= Date.now()) return fail(404, 'Not found');
    if (endpoint.disabled) return fail(409, 'Disabled');
    return queue({ owner: sub, endpointId: id, webhookId, type: sent.type, body: sent.body });
  } catch {
    return fail(503, 'Unavailable');
  }
};
