// What every peer shares with the floor (bench/baseline/common.ts: the same jose verification,
// keys and DynamoDB client) and with each other: the NewPlant schema as Zod's docs write it, the
// one conditional PutCommand with ours' replay rule, and our Error body. Each framework's own part
// is in its file.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { client, table } from '../baseline/common.ts';

export { subOf } from '../baseline/common.ts';

export const NewPlant = z.object({
  id: z.number().int().safe(),
  name: z.string(),
  tag: z.string().optional(),
});
export type NewPlant = z.infer<typeof NewPlant>;

/** Our Error body (docs/api.md, "Errors"), and the challenge every 401 carries. */
export const errorBody = (status: number, message: string) => ({ error: status, message });
export const CHALLENGE = 'Bearer realm="plants"';

/**
 * Stores the plant once: a retry of the same plant by its creator answers as the create did (ours'
 * rule), the same id with other content is a conflict. Any other failure throws.
 */
export const putPlant = async (plant: NewPlant, sub: string): Promise<'created' | 'conflict'> => {
  try {
    await client.send(
      new PutCommand({
        TableName: table,
        Item: { ...plant, createdAt: new Date().toISOString(), createdBy: sub, version: 1 },
        ConditionExpression: 'attribute_not_exists(id)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'created';
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const old = error.Item;
    const same =
      old?.createdBy?.S === sub && old?.name?.S === plant.name && old?.tag?.S === plant.tag;
    return same ? 'created' : 'conflict';
  }
};
