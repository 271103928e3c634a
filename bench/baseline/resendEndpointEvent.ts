// POST /webhooks/{id}/attempts/{webhookId}/resend, bare: the same GetItem of the caller's endpoint
// and of the event and UpdateItem of the endpoint's count, then the same SendMessageBatch of it to
// the endpoint-deliveries queue.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { endpointKey } from '#lib/endpoints/keys.ts';
import { client, endpointIdOf, fail, floor, webhooksTable } from './common.ts';
import { counted, queue } from './queue.ts';

/** The path's endpoint and webhook ids, when both are well formed. */
const idsOf = (event: Parameters<typeof endpointIdOf>[0]) => {
  const id = endpointIdOf(event);
  const webhookId = event.pathParameters?.webhookId ?? '';
  return id !== undefined && /^msg_[\w-]{1,64}$/.test(webhookId) ? { id, webhookId } : undefined;
};

export const handler = floor(
  async (_event, sub, { id, webhookId }) => {
    const get = (Key: Record<string, string>, ConsistentRead?: boolean) =>
      client.send(new GetCommand({ TableName: webhooksTable, Key, ConsistentRead }));
    const [{ Item: endpoint }, { Item: sent }] = await Promise.all([
      get(endpointKey(sub, id), true),
      get({ pk: `endpoint#${id}`, sk: `event#${webhookId}` }),
    ]);
    if (!endpoint) return fail(404, 'Not found');
    if (!(await counted(sub))) return fail(429, 'Too many');
    if (!sent || Number(sent.expiresAt) * 1000 <= Date.now()) return fail(404, 'Not found');
    if (endpoint.disabled) return fail(409, 'Disabled');
    return queue({ owner: sub, endpointId: id, webhookId, type: sent.type, body: sent.body });
  },
  { id: idsOf },
);
