// The callers' endpoints on DynamoDB (keys.ts): create, list, get, replace, delete. The count
// changes in its endpoint's transaction, on a condition: no concurrent creates store one too many.
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { abortable, type DynamoTarget } from '#lib/dynamo/client.ts';
import { orUnavailable } from '#lib/dynamo/errors.ts';
import { transactWrite } from '#lib/dynamo/transaction.ts';
import { callerPartition, countKey, ENDPOINT_PREFIX, endpointKey } from '#lib/endpoints/keys.ts';
import {
  type EndpointStore,
  MAX_ENDPOINTS_PER_CALLER,
  type StoredEndpoint,
} from '#lib/endpoints/store.ts';

/** What an endpoint's item holds besides its key: the owner and the id are the key's. */
export type EndpointAttributes = Omit<StoredEndpoint, 'owner' | 'id'>;

export const toStoredEndpoint = (owner: string, item: Record<string, unknown>): StoredEndpoint => {
  const { pk: _pk, sk, ...attributes } = item as EndpointAttributes & { pk: string; sk: string };
  return { id: sk.slice(ENDPOINT_PREFIX.length), owner, ...attributes };
};

// One factory per operation: each function's bundle holds the one its role allows.

export const dynamoCreateEndpoint = ({ client, table }: DynamoTarget): EndpointStore['create'] =>
  orUnavailable(async (owner, endpoint, { signal } = {}) => {
    const { id, ...attributes } = endpoint;
    const failed = await transactWrite(
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
    if (failed === 0) return { outcome: 'limitReached' };
    if (failed === 1)
      throw new Error(
        `endpoint id ${endpoint.id} is taken by another endpoint of the same caller: ids must be random (ep_ and enough random characters), fix how they are made`,
      );
    return { outcome: 'created', endpoint: { ...endpoint, owner } };
  });

/** Code unit order: localeCompare's first call loads ICU's collator (~6 ms of a cold start). */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const dynamoListEndpoints = ({ client, table }: DynamoTarget): EndpointStore['list'] =>
  orUnavailable(async (owner, { signal } = {}) => {
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
  });

export const dynamoGetEndpoint = ({ client, table }: DynamoTarget): EndpointStore['get'] =>
  orUnavailable(async (owner, id, { signal } = {}) => {
    const { Item } = await client.send(
      new GetCommand({ TableName: table, Key: endpointKey(owner, id), ConsistentRead: true }),
      abortable(signal),
    );
    return Item
      ? { outcome: 'found', endpoint: toStoredEndpoint(owner, Item) }
      : { outcome: 'notFound', reason: 'absent' };
  });

export const dynamoReplaceEndpoint = ({ client, table }: DynamoTarget): EndpointStore['replace'] =>
  orUnavailable(
    async (owner, id, { url, events, description, disabled }, { signal } = {}) => {
      // its standing stays with the url it was earned at (the old one's, read before the SET): a new
      // url is on probation; a description left out is none, events every type; enabling clears
      // disabledReason; a PUT restarts the quick answers in a row, never the failures' clock
      const set = [
        'standingUrl = if_not_exists(standingUrl, #url)',
        '#url = :url',
        'disabled = :disabled',
      ];
      const remove = ['quickAnswers', ...(disabled ? [] : ['disabledReason'])];
      if (description === undefined) remove.push('description');
      else set.push('description = :description');
      if (events === undefined) remove.push('events');
      else set.push('events = :events');
      const { Attributes = {} } = await client.send(
        new UpdateCommand({
          TableName: table,
          Key: endpointKey(owner, id),
          UpdateExpression: `SET ${set.join(', ')} REMOVE ${remove.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          // url is a reserved word; the other names are not
          ExpressionAttributeNames: { '#url': 'url' },
          ExpressionAttributeValues: {
            ':url': url,
            ':disabled': disabled,
            ...(events === undefined ? {} : { ':events': events }),
            ...(description === undefined ? {} : { ':description': description }),
          },
          ReturnValues: 'ALL_NEW',
        }),
        abortable(signal),
      );
      return { outcome: 'replaced', endpoint: toStoredEndpoint(owner, Attributes) };
    },
    () => ({ outcome: 'notFound', reason: 'absent' }),
  );

export const dynamoDeleteEndpoint = ({ client, table }: DynamoTarget): EndpointStore['delete'] =>
  orUnavailable(async (owner, id, { signal } = {}) => {
    const failed = await transactWrite(
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
    return failed === undefined
      ? { outcome: 'deleted' }
      : { outcome: 'notFound', reason: 'absent' };
  });
