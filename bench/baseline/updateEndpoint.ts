// PUT /webhooks/{id}, bare: the body and its url checked by hand, and the same conditional
// UpdateItem of the caller's endpoint (its standing kept with the url that earned it).
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { endpointKey } from '#lib/endpoints/keys.ts';
import {
  client,
  endpointBodyOf,
  endpointIdOf,
  endpointOf,
  fail,
  floor,
  reply,
  webhooksTable,
} from './common.ts';

export const handler = floor(
  async (event, sub, id) => {
    const body = await endpointBodyOf(event);
    if (!body) return fail(400, 'Invalid endpoint');
    const { url, events, description, disabled } = body;
    const set = ['standingUrl = if_not_exists(standingUrl, #url)', '#url = :url'];
    set.push('#events = :events', '#disabled = :disabled');
    const remove = ['quickAnswers', ...(disabled ? [] : ['#disabledReason'])];
    if (description === undefined) remove.push('#description');
    else set.push('#description = :description');
    const { Attributes = {} } = await client.send(
      new UpdateCommand({
        TableName: webhooksTable,
        Key: endpointKey(sub, id),
        UpdateExpression: `SET ${set.join(', ')} REMOVE ${remove.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: {
          '#url': 'url',
          '#events': 'events',
          '#disabled': 'disabled',
          '#description': 'description',
          ...(disabled ? {} : { '#disabledReason': 'disabledReason' }),
        },
        ExpressionAttributeValues: {
          ':url': url,
          ':events': events,
          ':disabled': disabled,
          ...(description === undefined ? {} : { ':description': description }),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return reply(200, endpointOf(Attributes));
  },
  { id: endpointIdOf, condition: [404, 'Not found'] },
);
