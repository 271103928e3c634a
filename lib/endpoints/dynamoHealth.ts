// What an attempt tells of an endpoint, written to its item (UpdateItem): failing or slow since
// when, quick once more, healthy again, or disabled; never to an endpoint deleted, nor (but for
// failing and slow) to one given a new url meanwhile.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoTarget } from '#lib/dynamo/client.ts';
import { endpointKey } from '#lib/endpoints/keys.ts';
import { type EndpointStore, QUICK_ANSWERS_TO_LEAVE } from '#lib/endpoints/store.ts';

/** What each health sets and removes of the endpoint's item (disabled stays unless told). */
const HEALTH_UPDATES = {
  // its standing earned at this url (its quick answers in a row, as stored): back on the main lane
  healthy: 'SET standingUrl = :url REMOVE failingSince, slowSince, quickAnswers',
  // it answers, quickly: its failures end, one more in a row, still on the slow lane
  quick:
    'SET slowSince = if_not_exists(slowSince, :since) ADD quickAnswers :one REMOVE failingSince',
  // the first failure's time stays while concurrent attempts fail too; the quick ones start over
  failing: 'SET failingSince = if_not_exists(failingSince, :since) REMOVE quickAnswers',
  // it answers, slowly: its failures end
  slow: 'SET slowSince = if_not_exists(slowSince, :since) REMOVE failingSince, quickAnswers',
  // a ping, or a PUT that enables it again, waits on the slow lane until it answers quickly
  disabled:
    'SET disabled = :true, disabledReason = :reason, slowSince = if_not_exists(slowSince, :since) REMOVE failingSince, quickAnswers',
};

export const dynamoSetEndpointHealth =
  ({ client, table }: DynamoTarget): EndpointStore['setHealth'] =>
  async (owner, id, health) => {
    const disabling = health.kind === 'disabled';
    const seen = disabling ? health.failingSince : undefined;
    const url = 'url' in health;
    const values = {
      ...('since' in health && { ':since': health.since }),
      ...(url && { ':url': health.url }),
      ...(health.kind === 'quick' && { ':one': 1 }),
      ...(health.kind === 'healthy' && { ':before': QUICK_ANSWERS_TO_LEAVE - 1 }),
      ...(disabling && { ':true': true, ':reason': health.reason }),
      ...(seen && { ':seen': seen }),
    };
    try {
      await client.send(
        new UpdateCommand({
          TableName: table,
          Key: endpointKey(owner, id),
          UpdateExpression: HEALTH_UPDATES[health.kind],
          // never brings back a deleted endpoint as a stub; a PUT of a new url meanwhile wins
          ConditionExpression: `attribute_exists(pk)${url ? ' AND #url = :url' : ''}${seen ? ' AND failingSince = :seen' : ''}${health.kind === 'healthy' ? ' AND quickAnswers >= :before' : ''}`,
          ...(url && { ExpressionAttributeNames: { '#url': 'url' } }),
          ...(Object.keys(values).length > 0 && { ExpressionAttributeValues: values }),
        }),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
    return true;
  };
