// POST /webhooks, bare: the body and its url checked by hand, a random id and secret, and the same
// transaction: the caller's count raised on the condition that it is under the most, with the
// endpoint put.
import { randomBytes } from 'node:crypto';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { countKey, endpointKey } from '#lib/endpoints/keys.ts';
import { MAX_ENDPOINTS_PER_CALLER } from '#lib/endpoints/store.ts';
import { client, endpointBodyOf, fail, floor, newSecret, reply, webhooksTable } from './common.ts';

export const handler = floor(
  async (event, sub) => {
    const body = await endpointBodyOf(event);
    if (!body) return fail(400, 'Invalid endpoint');
    const id = `ep_${randomBytes(16).toString('base64url')}`;
    const secret = newSecret();
    const endpoint = { ...body, disabled: false, createdAt: new Date().toISOString() };
    await client.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: webhooksTable,
              Key: countKey(sub),
              UpdateExpression: 'ADD endpoints :one',
              ConditionExpression: 'attribute_not_exists(endpoints) OR endpoints < :most',
              ExpressionAttributeValues: { ':one': 1, ':most': MAX_ENDPOINTS_PER_CALLER },
            },
          },
          {
            Put: {
              TableName: webhooksTable,
              Item: { ...endpointKey(sub, id), ...endpoint, secrets: [{ secret }] },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
    const created = reply(201, { id, ...endpoint, secret });
    const Location = `https://${event.headers.host}${event.rawPath}/${id}`;
    return { ...created, headers: { ...created.headers, Location } };
  },
  { condition: [409, 'Limit reached'] },
);
