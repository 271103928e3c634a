// The plant store on DynamoDB: one request a call, every write conditional; a failed condition
// returns the item (ReturnValuesOnConditionCheckFailure), so telling why needs no second read.
import type { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { abortable, type DynamoTarget } from '#lib/dynamo/client.ts';
import { orUnavailable } from '#lib/dynamo/errors.ts';
import { CREATOR_TAG, creatorTagOf } from '#lib/plants/creatorTag.ts';
import type { PlantStore, StoredPlant } from '#lib/plants/store.ts';
import { plantUpdateExpressions } from '#lib/plants/updateExpression.ts';
import { contentOf, sameContent } from '#lib/plants/views.ts';
import { currentTraceId } from '#lib/telemetry.ts';

/** Each caller's plants, oldest first, all attributes projected: a new field needs no new index. */
export const BY_CREATOR_INDEX = 'plantsByCreator';

/** The same for one tag, keyed by lib/plants/creatorTag.ts's attribute (none when untagged). */
export const BY_CREATOR_TAG_INDEX = 'plantsByCreatorTag';

/** An item without the index key; a plant stored before versions existed is at version 1. */
const toStoredPlant = (item: object): StoredPlant => {
  const { [CREATOR_TAG]: _indexKey, ...plant } = item as StoredPlant & { [CREATOR_TAG]?: string };
  return plant.version === undefined ? { ...plant, version: 1 } : plant;
};

/** The item a failed condition returned, if it exists. */
const itemAtFailure = (error: ConditionalCheckFailedException) =>
  error.Item ? toStoredPlant(unmarshall(error.Item)) : undefined;

/** The table; and the trace id of the request writing, kept on the plant for the stream's consumers. */
export type PlantTarget = DynamoTarget & { traceId?: () => string | undefined };

// One factory per operation, so that each bundle holds only the DynamoDB command its role allows.

export const dynamoCreate = ({
  client,
  table,
  now = () => new Date(),
  traceId = currentTraceId,
}: PlantTarget): PlantStore['create'] =>
  orUnavailable(
    async (plant, creator, { signal } = {}) => {
      const writtenBy = traceId?.();
      const item: StoredPlant = {
        id: plant.id,
        ...contentOf(plant),
        createdAt: now().toISOString(),
        createdBy: creator,
        version: 1,
        ...(writtenBy && { traceId: writtenBy }),
      };
      const tagKey =
        plant.tag === undefined ? {} : { [CREATOR_TAG]: creatorTagOf(creator, plant.tag) };
      await client.send(
        new PutCommand({
          TableName: table,
          Item: { ...item, ...tagKey },
          ConditionExpression: 'attribute_not_exists(id)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
        abortable(signal),
      );
      return { outcome: 'created', plant: item };
    },
    (error, [plant, creator]) => {
      const existing = itemAtFailure(error);
      if (!existing) throw error;
      if (existing.createdBy !== creator) return { outcome: 'conflict', reason: 'notOwner' };
      return sameContent(existing, plant)
        ? { outcome: 'replayed', plant: existing }
        : { outcome: 'conflict', reason: 'content' };
    },
  );

export const dynamoGet = ({ client, table }: DynamoTarget): PlantStore['get'] =>
  orUnavailable(async (id, owner, { signal } = {}) => {
    const { Item } = await client.send(
      new GetCommand({ TableName: table, Key: { id }, ConsistentRead: true }),
      abortable(signal),
    );
    if (!Item) return { outcome: 'notFound', reason: 'absent' };
    const plant = toStoredPlant(Item);
    return plant.createdBy === owner
      ? { outcome: 'found', plant }
      : { outcome: 'notFound', reason: 'notOwner' };
  });

export const dynamoList = ({ client, table }: DynamoTarget): PlantStore['list'] =>
  orUnavailable(async (owner, { limit, after, tag }, { signal } = {}) => {
    // one tag: the sparse index's one partition of the owner's plants with it; else all of theirs
    const [index, keyName, key] =
      tag === undefined
        ? [BY_CREATOR_INDEX, 'createdBy', owner]
        : [BY_CREATOR_TAG_INDEX, CREATOR_TAG, creatorTagOf(owner, tag)];
    const { Items = [], LastEvaluatedKey } = await client.send(
      new QueryCommand({
        TableName: table,
        IndexName: index,
        KeyConditionExpression: `${keyName} = :key`,
        ExpressionAttributeValues: { ':key': key },
        // one more than the page: a next page is promised only when a plant is there for it
        Limit: limit + 1,
        ...(after ? { ExclusiveStartKey: { [keyName]: key, ...after } } : {}),
      }),
      abortable(signal),
    );
    const plants = Items.slice(0, limit).map(toStoredPlant);
    const last = plants.at(-1);
    // a page cut short by DynamoDB's 1 MB limit (long names) ends where DynamoDB stopped
    const more = Items.length > limit || (LastEvaluatedKey !== undefined && Items.length > 0);
    return more && last
      ? { outcome: 'page', plants, next: { createdAt: last.createdAt, id: last.id } }
      : { outcome: 'page', plants };
  });

export const dynamoUpdate = ({
  client,
  table,
  traceId = currentTraceId,
}: PlantTarget): PlantStore['update'] =>
  orUnavailable(
    async (id, owner, request, { signal } = {}) => {
      const { Attributes } = await client.send(
        new UpdateCommand({
          TableName: table,
          Key: { id },
          ...plantUpdateExpressions(owner, request, traceId?.()),
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
        abortable(signal),
      );
      return { outcome: 'updated', plant: toStoredPlant(Attributes ?? {}) };
    },
    (error, [, owner]) => {
      const current = itemAtFailure(error);
      if (!current) return { outcome: 'notFound', reason: 'absent' };
      if (current.createdBy !== owner) return { outcome: 'notFound', reason: 'notOwner' };
      return { outcome: 'versionMismatch', version: current.version };
    },
  );

export const dynamoDelete = ({ client, table }: DynamoTarget): PlantStore['delete'] =>
  orUnavailable(
    async (id, owner, { signal } = {}) => {
      await client.send(
        new DeleteCommand({
          TableName: table,
          Key: { id },
          // only the creator's plant; a missing item fails the condition too
          ConditionExpression: 'createdBy = :owner',
          ExpressionAttributeValues: { ':owner': owner },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
        abortable(signal),
      );
      return { outcome: 'deleted' };
    },
    (error) => ({ outcome: 'notFound', reason: error.Item ? 'notOwner' : 'absent' }),
  );
