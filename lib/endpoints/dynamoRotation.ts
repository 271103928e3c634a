// A rotation of an endpoint's signing secret on DynamoDB (GetItem, then UpdateItem): the read's
// secrets written anew only while still the stored ones, so no concurrent rotation is lost.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { abortable, type DynamoTarget } from '#lib/dynamo/client.ts';
import { orUnavailable } from '#lib/dynamo/errors.ts';
import { type EndpointAttributes, toStoredEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { endpointKey } from '#lib/endpoints/keys.ts';
import type { EndpointSecret, EndpointStore } from '#lib/endpoints/store.ts';

/** How many times, in all, a rotation is written while concurrent rotations keep changing the secrets. */
const ROTATION_ATTEMPTS = 5;

/** After a rotation: the new secret, and the one it replaces until keepOldUntil (docs/api.md, "A caller's endpoint": two). */
const rotated = (
  secrets: EndpointSecret[],
  { secret, keepOldUntil }: { secret: string; keepOldUntil: string },
): EndpointSecret[] => {
  const current = secrets.find(({ expiresAt }) => expiresAt === undefined);
  return [{ secret }, ...(current ? [{ secret: current.secret, expiresAt: keepOldUntil }] : [])];
};

// A concurrent rotation fails the write's condition and returns the item it left
// (ReturnValuesOnConditionCheckFailure): the list is made again from it, without another read.
export const dynamoRotateEndpointSecret = ({
  client,
  table,
}: DynamoTarget): EndpointStore['rotateSecret'] =>
  orUnavailable(async (owner, id, rotation, { signal } = {}) => {
    const Key = endpointKey(owner, id);
    const { Item } = await client.send(
      new GetCommand({ TableName: table, Key, ConsistentRead: true }),
      abortable(signal),
    );
    let seen = Item as EndpointAttributes | undefined;
    for (let attempt = 1; seen; attempt += 1) {
      try {
        const { Attributes = {} } = await client.send(
          new UpdateCommand({
            TableName: table,
            Key,
            UpdateExpression: 'SET secrets = :rotated',
            ConditionExpression: 'secrets = :seen',
            ExpressionAttributeValues: {
              ':rotated': rotated(seen.secrets, rotation),
              ':seen': seen.secrets,
            },
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
          abortable(signal),
        );
        return { outcome: 'rotated', endpoint: toStoredEndpoint(owner, Attributes) };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        if (attempt === ROTATION_ATTEMPTS) {
          const why = `${ROTATION_ATTEMPTS} concurrent rotations of endpoint ${id} changed its secrets while this one was written: try again`;
          return { outcome: 'unavailable', cause: new Error(why) };
        }
        // deleted meanwhile when no item came back
        seen = error.Item && (unmarshall(error.Item) as EndpointAttributes);
      }
    }
    return { outcome: 'notFound', reason: 'absent' };
  });
