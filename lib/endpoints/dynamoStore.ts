// The callers' webhook endpoints on DynamoDB (infra/dynamodb.yml's WebhooksTable). A caller's
// endpoints share one partition, `caller#<owner>`: each endpoint is the item `endpoint#<id>`, so a
// GET, PUT or DELETE (which know the owner and the id) is one item's key, and another caller's
// endpoint is simply not under this caller's key (notFound, reason absent); beside them, the item
// `count` counts them. The list is one Query of that partition: at most MAX_ENDPOINTS_PER_CALLER
// small items, sorted here by creation time (a sort key of creation time would leave a GET by id
// without a key). The count changes in the same transaction as the endpoint it counts, on a
// condition, so that no number of concurrent creates ever stores one too many.
//
// The DynamoDB actions of each operation (its function's grants): create PutItem and UpdateItem
// (one TransactWriteItems), list Query, get GetItem, replace UpdateItem, rotateSecret GetItem and
// UpdateItem, delete DeleteItem and UpdateItem (one TransactWriteItems), setHealth UpdateItem.

import { setTimeout } from 'node:timers/promises';
import {
  ConditionalCheckFailedException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { abortable } from '#lib/dynamo/client.ts';
import { isCancelledForNow, unavailableOr } from '#lib/dynamo/errors.ts';
import { callerPartition, countKey, ENDPOINT_PREFIX, endpointKey } from '#lib/endpoints/keys.mjs';
import {
  type EndpointSecret,
  type EndpointStore,
  MAX_ENDPOINTS_PER_CALLER,
  type StoredEndpoint,
} from '#lib/endpoints/store.ts';
import type { DynamoTarget } from '#lib/plants/dynamoStore.ts';

/** What an endpoint's item holds besides its key: the owner and the id are the key's. */
type EndpointAttributes = Omit<StoredEndpoint, 'owner' | 'id'>;

const toStoredEndpoint = (owner: string, item: Record<string, unknown>): StoredEndpoint => {
  const {
    pk: _partition,
    sk,
    ...attributes
  } = item as EndpointAttributes & { pk: string; sk: string };
  return { id: sk.slice(ENDPOINT_PREFIX.length), owner, ...attributes };
};

/** How many times, in all, a transaction is sent while DynamoDB cancels it only for a while. */
const TRANSACTION_ATTEMPTS = 5;

/**
 * Writes `items` all or none: the index of the item whose condition failed, if one did. A
 * transaction cancelled by another on the same item (two creates of one caller: both change its
 * count), or throttled, is sent again after a random wait (the SDK retries neither), and after
 * TRANSACTION_ATTEMPTS its cancellation is thrown, an outage to unavailableOr. A cancelled
 * transaction wrote nothing, so sending it again is safe; the SDK's own retry of a request that
 * timed out is too, with the idempotency token it gives every TransactWriteItems.
 */
const writeTogether = async (
  client: DynamoDBDocumentClient,
  items: NonNullable<TransactWriteCommandInput['TransactItems']>,
  signal: AbortSignal | undefined,
): Promise<number | undefined> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.send(new TransactWriteCommand({ TransactItems: items }), abortable(signal));
      return undefined;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const failed = (error.CancellationReasons ?? []).findIndex(
        (reason) => reason.Code === 'ConditionalCheckFailed',
      );
      if (failed >= 0) return failed;
      if (!isCancelledForNow(error) || attempt === TRANSACTION_ATTEMPTS) throw error;
      // full jitter: concurrent writers spread out rather than collide again
      await setTimeout(Math.random() * 25 * 2 ** attempt, undefined, signal ? { signal } : {});
    }
  }
};

// One factory per operation, as for the plants (lib/plants/dynamoStore.ts): each function's bundle
// holds the one it uses, as its role allows only that one's actions.

export const dynamoCreateEndpoint =
  ({ client, table }: DynamoTarget): EndpointStore['create'] =>
  async (owner, endpoint, { signal } = {}) => {
    const { id, ...attributes } = endpoint;
    let failed: number | undefined;
    try {
      failed = await writeTogether(
        client,
        [
          {
            Update: {
              TableName: table,
              Key: countKey(owner),
              UpdateExpression: 'ADD endpoints :one',
              ConditionExpression: 'attribute_not_exists(endpoints) OR endpoints < :most',
              ExpressionAttributeValues: { ':one': 1, ':most': MAX_ENDPOINTS_PER_CALLER },
            },
          },
          {
            Put: {
              TableName: table,
              Item: { ...endpointKey(owner, id), ...attributes },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
        signal,
      );
    } catch (error) {
      return unavailableOr(error);
    }
    if (failed === 0) return { outcome: 'limitReached' };
    if (failed === 1) {
      throw new Error(
        `endpoint id ${endpoint.id} is taken by another endpoint of the same caller: ids must be random (ep_ and enough random characters), fix how they are made`,
      );
    }
    return { outcome: 'created', endpoint: { ...endpoint, owner } };
  };

/** Code unit order: localeCompare's first call loads ICU's collator (~6 ms of a cold start). */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const dynamoListEndpoints =
  ({ client, table }: DynamoTarget): EndpointStore['list'] =>
  async (owner, { signal } = {}) => {
    try {
      const { Items = [] } = await client.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :caller AND begins_with(sk, :endpoint)',
          ExpressionAttributeValues: {
            ':caller': callerPartition(owner),
            ':endpoint': ENDPOINT_PREFIX,
          },
          ConsistentRead: true,
        }),
        abortable(signal),
      );
      const endpoints = Items.map((item) => toStoredEndpoint(owner, item)).sort(
        (a, b) => byCodeUnits(a.createdAt, b.createdAt) || byCodeUnits(a.id, b.id),
      );
      return { outcome: 'list', endpoints };
    } catch (error) {
      return unavailableOr(error);
    }
  };

export const dynamoGetEndpoint =
  ({ client, table }: DynamoTarget): EndpointStore['get'] =>
  async (owner, id, { signal } = {}) => {
    try {
      const { Item } = await client.send(
        new GetCommand({ TableName: table, Key: endpointKey(owner, id), ConsistentRead: true }),
        abortable(signal),
      );
      return Item
        ? { outcome: 'found', endpoint: toStoredEndpoint(owner, Item) }
        : { outcome: 'notFound', reason: 'absent' };
    } catch (error) {
      return unavailableOr(error);
    }
  };

export const dynamoReplaceEndpoint =
  ({ client, table }: DynamoTarget): EndpointStore['replace'] =>
  async (owner, id, { url, events, description, disabled }, { signal } = {}) => {
    const set = ['#url = :url', '#events = :events', '#disabled = :disabled'];
    // a description left out is none; enabling clears why the service had disabled it; a replaced
    // endpoint starts with no failures counted against it
    const remove = disabled ? ['failingSince'] : ['failingSince', '#disabledReason'];
    if (description === undefined) remove.push('#description');
    else set.push('#description = :description');
    try {
      const { Attributes = {} } = await client.send(
        new UpdateCommand({
          TableName: table,
          Key: endpointKey(owner, id),
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
        abortable(signal),
      );
      return { outcome: 'replaced', endpoint: toStoredEndpoint(owner, Attributes) };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException)
        return { outcome: 'notFound', reason: 'absent' };
      return unavailableOr(error);
    }
  };

/** How many times, in all, a rotation is written while concurrent rotations keep changing the secrets. */
const ROTATION_ATTEMPTS = 5;

/** After a rotation: the new secret, and the one it replaces until keepOldUntil (API.md: two). */
const rotated = (
  secrets: EndpointSecret[],
  { secret, keepOldUntil }: { secret: string; keepOldUntil: string },
): EndpointSecret[] => {
  const current = secrets.find(({ expiresAt }) => expiresAt === undefined);
  return [{ secret }, ...(current ? [{ secret: current.secret, expiresAt: keepOldUntil }] : [])];
};

/**
 * The new list of secrets is made from the one read, and written only if that is still the one
 * stored (the condition compares the lists). A concurrent rotation that wrote in between fails the
 * condition; the item it returns (ReturnValuesOnConditionCheckFailure) is the new starting point,
 * so the list is made again from it without another read. So every rotation answered `rotated` is
 * in the stored list: none overwrites another's new secret.
 */
export const dynamoRotateEndpointSecret =
  ({ client, table }: DynamoTarget): EndpointStore['rotateSecret'] =>
  async (owner, id, rotation, { signal } = {}) => {
    const Key = endpointKey(owner, id);
    try {
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
            return {
              outcome: 'unavailable',
              cause: new Error(
                `${ROTATION_ATTEMPTS} concurrent rotations of endpoint ${id} changed its secrets while this one was written: try again`,
              ),
            };
          }
          // deleted meanwhile when no item came back
          seen = error.Item && (unmarshall(error.Item) as EndpointAttributes);
        }
      }
      return { outcome: 'notFound', reason: 'absent' };
    } catch (error) {
      return unavailableOr(error);
    }
  };

export const dynamoDeleteEndpoint =
  ({ client, table }: DynamoTarget): EndpointStore['delete'] =>
  async (owner, id, { signal } = {}) => {
    let failed: number | undefined;
    try {
      failed = await writeTogether(
        client,
        [
          {
            Delete: {
              TableName: table,
              Key: endpointKey(owner, id),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          {
            Update: {
              TableName: table,
              Key: countKey(owner),
              UpdateExpression: 'ADD endpoints :minusOne',
              ExpressionAttributeValues: { ':minusOne': -1 },
            },
          },
        ],
        signal,
      );
    } catch (error) {
      return unavailableOr(error);
    }
    return failed === undefined
      ? { outcome: 'deleted' }
      : { outcome: 'notFound', reason: 'absent' };
  };

/** What each health sets and removes of the endpoint's item (disabled stays unless told). */
const HEALTH_UPDATES = {
  healthy: 'REMOVE failingSince',
  // the first failure's time stays while concurrent attempts fail too
  failing: 'SET failingSince = if_not_exists(failingSince, :since)',
  disabled: 'SET disabled = :true, disabledReason = :reason REMOVE failingSince',
};

export const dynamoSetEndpointHealth =
  ({ client, table }: DynamoTarget): EndpointStore['setHealth'] =>
  async (owner, id, health) => {
    const disabling = health.kind === 'disabled';
    const seen = disabling ? health.failingSince : undefined;
    const values = {
      ...(health.kind === 'failing' && { ':since': health.since }),
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
