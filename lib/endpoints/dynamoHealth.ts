// What an attempt tells of an endpoint, written to its item (UpdateItem): failing or slow since
// when, healthy again, or disabled; never to an endpoint deleted or given a new url meanwhile.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoTarget } from '#lib/dynamo/client.ts';
import { endpointKey } from '#lib/endpoints/keys.ts';
import type { EndpointStore } from '#lib/endpoints/store.ts';

/** What each health sets and removes of the endpoint's item (disabled stays unless told). */
const HEALTH_UPDATES = {
  healthy: 'REMOVE failingSince, slowSince',
  // the first failure's time stays while concurrent attempts fail too
  failing: 'SET failingSince = if_not_exists(failingSince, :since)',
  // it answers, slowly: its failures end
  slow: 'SET slowSince = if_not_exists(slowSince, :since) REMOVE failingSince',
  disabled: 'SET disabled = :true, disabledReason = :reason REMOVE failingSince',
};

export const dynamoSetEndpointHealth =
  ({ client, table }: DynamoTarget): EndpointStore['setHealth'] =>
  async (owner, id, health) => {
    const disabling = health.kind === 'disabled';
    const seen = disabling ? health.failingSince : undefined;
    const values = {
      ...((health.kind === 'failing' || health.kind === 'slow') && { ':since': health.since }),
      ...(disabling && { ':true': true, ':reason': health.reason, ':url': health.url }),
      ...(seen && { ':seen': seen }),
    };
    try {
      await client.send(
        new UpdateCommand({
          TableName: table,
          Key: endpointKey(owner, id),
          UpdateExpression: HEALTH_UPDATES[health.kind],
          // never brings back a deleted endpoint as a stub; a PUT of a new url meanwhile wins
          ConditionExpression: `attribute_exists(pk)${disabling ? ' AND #url = :url' : ''}${seen ? ' AND failingSince = :seen' : ''}`,
          ...(disabling && { ExpressionAttributeNames: { '#url': 'url' } }),
          ...(Object.keys(values).length > 0 && { ExpressionAttributeValues: values }),
        }),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
    return true;
  };
