// POST /plants, bare: JSON.parse, the three fields checked by hand, and the same conditional
// PutCommand through the same DynamoDB client. `seen` takes the caller and the plant id as they
// become known, for the floor that logs them (bench/baseline/observed/observedFloor.ts).
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { callerOf, client, fail, jsonOf, type Reply, reply, table } from './common.ts';

/** What a create learned of its request: the caller once verified, the id once stored, a 409's why. */
export interface Seen {
  sub?: string;
  plantId?: number;
  detail?: 'content' | 'notOwner';
}

export const createPlant = async (
  event: APIGatewayProxyEventV2,
  seen: Seen = {},
): Promise<Reply> => {
  const sub = await callerOf(event);
  if (!sub) return fail(401, 'Unauthorized');
  seen.sub = sub;
  const body = jsonOf(event);
  if (!body) return fail(400, 'Invalid JSON');
  const { id, name, tag } = body;
  if (
    !Number.isSafeInteger(id) ||
    typeof name !== 'string' ||
    (tag !== undefined && typeof tag !== 'string')
  ) {
    return fail(400, 'Invalid plant');
  }
  return storePlant({ id: id as number, name, tag }, sub, seen);
};

/** Stores a checked plant once, as ours does: a 409 when its id is taken; the answer ours gives. */
export const storePlant = async (
  { id, name, tag }: { id: number; name: string; tag?: string | undefined },
  sub: string,
  seen: Seen,
): Promise<Reply> => {
  const item = {
    id,
    name,
    ...(tag === undefined ? {} : { tag }),
    createdAt: new Date().toISOString(),
    createdBy: sub,
    version: 1,
  };
  seen.plantId = id;
  try {
    await client.send(
      new PutCommand({
        TableName: table,
        Item: item,
        ConditionExpression: 'attribute_not_exists(id)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) return fail(503, 'Unavailable');
    seen.detail = error.Item?.createdBy?.S === sub ? 'content' : 'notOwner';
    return fail(409, 'Conflict');
  }
  return reply(200, tag === undefined ? { name } : { name, tag });
};

export const handler = (event: APIGatewayProxyEventV2) => createPlant(event);
