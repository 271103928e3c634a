// The plant store on DynamoDB: one conditional write per create, so concurrent creates of one id
// store exactly one plant and a stored plant is never overwritten.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { NewPlant } from '#lib/plants/schemas.ts';
import type { CreateResult, PlantStore, StoredPlant } from '#lib/plants/store.ts';

export interface DynamoPlantStoreOptions {
  client: DynamoDBDocumentClient;
  table: string;
  now?: () => Date;
}

/** Errors that say "try again later": throttling, DynamoDB's own faults, no answer at all. */
const RETRY_LATER = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionConflictException',
  'TimeoutError',
  'AbortError',
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

interface SdkErrorFields {
  $fault?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
  $response?: { statusCode?: number };
}

const isTransient = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  const { $fault, code, $metadata, $response } = error as SdkErrorFields;
  // a 5xx whose body the SDK could not even parse (a proxy's HTML error page) is an outage too
  const status = $metadata?.httpStatusCode ?? $response?.statusCode ?? 0;
  return (
    RETRY_LATER.has(error.name) ||
    $fault === 'server' ||
    status >= 500 ||
    (code !== undefined && NETWORK_CODES.has(code))
  );
};

const sameContent = (stored: StoredPlant, plant: NewPlant) =>
  stored.name === plant.name && stored.tag === plant.tag;

export const createDynamoPlantStore = ({
  client,
  table,
  now = () => new Date(),
}: DynamoPlantStoreOptions): PlantStore => ({
  async create(plant, creator, { signal } = {}): Promise<CreateResult> {
    const item: StoredPlant = {
      id: plant.id,
      name: plant.name,
      ...(plant.tag === undefined ? {} : { tag: plant.tag }),
      createdAt: now().toISOString(),
      createdBy: creator,
    };
    try {
      await client.send(
        new PutCommand({
          TableName: table,
          Item: item,
          ConditionExpression: 'attribute_not_exists(id)',
          // the existing plant comes back with the failure: no second read to tell replay from conflict
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
        signal ? { abortSignal: signal } : {},
      );
      return { outcome: 'created', plant: item };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException && error.Item) {
        const existing = unmarshall(error.Item) as StoredPlant;
        return sameContent(existing, plant)
          ? { outcome: 'replayed', plant: existing }
          : { outcome: 'conflict', existing };
      }
      if (isTransient(error)) return { outcome: 'unavailable', cause: error };
      throw error;
    }
  },
});
