// POST /webhooks/{id}/ping, bare: the same GetItem of the caller's endpoint and UpdateItem of its
// count, then the same SendMessageBatch of one webhook.ping delivery to the endpoint-deliveries queue.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { endpointKey } from '#lib/endpoints/keys.ts';
import { client, endpointIdOf, fail, floor, webhooksTable } from './common.ts';
import { counted, newWebhookId, queue } from './queue.ts';

export const handler = floor(
  async (_event, sub, id) => {
    const { Item } = await client.send(
      new GetCommand({ TableName: webhooksTable, Key: endpointKey(sub, id), ConsistentRead: true }),
    );
    if (!Item) return fail(404, 'Not found');
    if (!(await counted(sub))) return fail(429, 'Too many');
    const webhookId = newWebhookId();
    const body = JSON.stringify({
      type: 'webhook.ping',
      timestamp: new Date().toISOString(),
      data: { endpointId: id },
    });
    return queue({ owner: sub, endpointId: id, webhookId, type: 'webhook.ping', body });
  },
  { id: endpointIdOf },
);
