// DELETE /webhooks/{id}, bare: the same transaction: the caller's endpoint deleted on the condition
// that it exists, with its count lowered.
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { countKey, endpointKey } from '#lib/endpoints/keys.ts';
import { client, endpointIdOf, floor, webhooksTable } from './common.ts';

export const handler = floor(
  async (_event, sub, id) => {
    await client.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: webhooksTable,
              Key: endpointKey(sub, id),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          {
            Update: {
              TableName: webhooksTable,
              Key: countKey(sub),
              UpdateExpression: 'ADD endpoints :minusOne',
              ExpressionAttributeValues: { ':minusOne': -1 },
            },
          },
        ],
      }),
    );
    return { statusCode: 204 };
  },
  { id: endpointIdOf, condition: [404, 'Not found'] },
);
