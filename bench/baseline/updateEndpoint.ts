// PUT /webhooks/{id}, bare: the body and its url checked by hand, and the same conditional
// UpdateItem of the caller's endpoint.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { endpointKey } from '#lib/endpoints/keys.ts';
import {
  callerOf,
  client,
  endpointBodyOf,
  endpointIdOf,
  endpointOf,
  fail,
  reply,
  webhooksTable,
} from './common.ts';

export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const sub = await callerOf(event);
  if (!sub) return fail(401, 'Unauthorized');
  const id = endpointIdOf(event);
  if (id === undefined) return fail(400, 'Invalid id');
  const body = await endpointBodyOf(event);
  if (!body) return fail(400, 'Invalid endpoint');
  const { url, events, description, disabled } = body;
  const set = ['#url = :url', '#events = :events', '#disabled = :disabled'];
  const remove = disabled ? [] : ['#disabledReason'];
  if (description === undefined) remove.push('#description');
  else set.push('#description = :description');
  try {
    const { Attributes = {} } = await client.send(
      new UpdateCommand({
        TableName: webhooksTable,
        Key: endpointKey(sub, id),
        UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
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
  } catch (error) {
    return error instanceof ConditionalCheckFailedException
      ? fail(404, 'Not found')
      : fail(503, 'Unavailable');
  }
};
