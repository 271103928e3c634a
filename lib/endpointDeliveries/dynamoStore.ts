// An endpoint's attempts, its events (for a resend) and its per-minute send counts on DynamoDB, in
// its deliveries partition (lib/endpoints/keys.ts). Each item's `expiresAt` is for the table's TTL,
// which deletes days late, so the reads skip what is past its time themselves.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { abortable, type DynamoTarget } from '#lib/dynamo/client.ts';
import { orUnavailable, unavailableOr } from '#lib/dynamo/errors.ts';
import {
  ATTEMPTS_KEPT_MS,
  type Attempt,
  type AttemptStore,
  MAX_SENDS_PER_MINUTE,
  type SentEvent,
} from '#lib/endpointDeliveries/store.ts';
import {
  ATTEMPT_PREFIX,
  attemptKey,
  deliveriesPartition,
  eventKey,
  sendsKey,
} from '#lib/endpoints/keys.ts';

/** When the table's TTL may delete what started at `at`: seconds since the epoch. */
const expiresAt = (at: string) => Math.ceil((Date.parse(at) + ATTEMPTS_KEPT_MS) / 1000);

/** The attempt of an item: its fields in the document's order, an absent one left out (JSON). */
const toAttempt = (item: Record<string, unknown>): Attempt => {
  const { webhookId, type, attempt, at, status, error, durationMs } = item as unknown as Attempt;
  return { webhookId, type, attempt, at, status, error, durationMs };
};

// One factory per operation, as for the endpoints: each function's bundle holds the one it uses.

export const dynamoRecordAttempt =
  ({ client, table }: DynamoTarget): AttemptStore['record'] =>
  async (endpointId, attempt, event) => {
    // each item is written once: an event keeps its first send time, so a resend never renews it
    const put = (key: object, fields: object) =>
      client
        .send(
          new PutCommand({
            TableName: table,
            Item: { ...key, ...fields, expiresAt: expiresAt(attempt.at) },
            ConditionExpression: 'attribute_not_exists(sk)',
          }),
        )
        .catch((error: unknown) => {
          if (!(error instanceof ConditionalCheckFailedException)) throw error;
        });
    await Promise.all([
      put(attemptKey(endpointId, attempt), attempt),
      ...(event ? [put(eventKey(endpointId, attempt.webhookId), event)] : []),
    ]);
  };

export const dynamoListAttempts = ({
  client,
  table,
  now = () => new Date(),
}: DynamoTarget): AttemptStore['list'] =>
  orUnavailable(async (endpointId, { limit, after }, { signal } = {}) => {
    const oldest = `${ATTEMPT_PREFIX}${new Date(now().getTime() - ATTEMPTS_KEPT_MS).toISOString()}`;
    // a page's last attempt has aged out since: nothing older is listed, and DynamoDB refuses a
    // start key outside the condition's range
    if (after !== undefined && after < oldest) return { outcome: 'page', attempts: [] };
    const pk = deliveriesPartition(endpointId);
    const { Items = [], LastEvaluatedKey } = await client.send(
      new QueryCommand({
        TableName: table,
        // every sort key of an attempt sorts below the last code point
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :oldest AND :newest',
        ExpressionAttributeValues: {
          ':pk': pk,
          ':oldest': oldest,
          ':newest': `${ATTEMPT_PREFIX}\uffff`,
        },
        ScanIndexForward: false,
        Limit: limit,
        ...(after === undefined ? {} : { ExclusiveStartKey: { pk, sk: after } }),
      }),
      abortable(signal),
    );
    const next = LastEvaluatedKey?.sk as string | undefined;
    return { outcome: 'page', attempts: Items.map(toAttempt), ...(next ? { next } : {}) };
  });

export const dynamoSentEvent = ({
  client,
  table,
  now = () => new Date(),
}: DynamoTarget): AttemptStore['event'] =>
  orUnavailable(async (endpointId, webhookId, { signal } = {}) => {
    const { Item } = await client.send(
      new GetCommand({ TableName: table, Key: eventKey(endpointId, webhookId) }),
      abortable(signal),
    );
    if (!Item || Number(Item.expiresAt) * 1000 <= now().getTime()) return { outcome: 'notFound' };
    return { outcome: 'found', event: { type: Item.type, body: Item.body } as SentEvent };
  });

export const dynamoCountSend =
  ({ client, table, now = () => new Date() }: DynamoTarget): AttemptStore['countSend'] =>
  async (owner, { signal } = {}) => {
    const at = now().getTime();
    const ends = at - (at % 60_000) + 60_000;
    const minute = new Date(ends - 60_000).toISOString();
    try {
      await client.send(
        new UpdateCommand({
          TableName: table,
          Key: sendsKey(owner, minute),
          UpdateExpression: 'ADD sends :one SET expiresAt = :ends',
          // one conditional write: concurrent pings and resends never count past the most
          ConditionExpression: 'attribute_not_exists(sends) OR sends < :max',
          ExpressionAttributeValues: {
            ':one': 1,
            ':max': MAX_SENDS_PER_MINUTE,
            ':ends': ends / 1000,
          },
        }),
        abortable(signal),
      );
      return { outcome: 'counted', minute };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) return unavailableOr(error);
      return { outcome: 'limited', retryAfterSeconds: Math.ceil((ends - at) / 1000) };
    }
  };

export const dynamoUncountSend =
  ({ client, table }: DynamoTarget): AttemptStore['uncountSend'] =>
  async (owner, minute) => {
    await client.send(
      new UpdateCommand({
        TableName: table,
        Key: sendsKey(owner, minute),
        UpdateExpression: 'ADD sends :less',
        // never below none, nor an item made anew by a give-back
        ConditionExpression: 'sends > :none',
        ExpressionAttributeValues: { ':less': -1, ':none': 0 },
      }),
    );
  };
