// One DynamoDB document client a container, bounded so a slow store is a 503 within the timeout.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DynamoDbSettings, StoreSettings } from '#lib/config/store.ts';
import { traceCalls } from '#lib/xray.ts';

export const createDocumentClient = (settings: DynamoDbSettings): DynamoDBDocumentClient => {
  const client = new DynamoDBClient({
    region: settings.region,
    maxAttempts: settings.maxAttempts,
    requestHandler: {
      connectionTimeout: settings.connectTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      // without it the SDK only logs a warning and keeps waiting on a silent connection
      throwOnRequestTimeout: true,
    },
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
  });
  traceCalls(client);
  // an optional field left unset is absent from the item, as it is from the value
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
};

/** The SDK's options of a request that stops when `signal` aborts. */
export const abortable = (signal: AbortSignal | undefined) =>
  signal ? { abortSignal: signal } : {};

export interface DynamoTarget {
  client: DynamoDBDocumentClient;
  table: string;
  now?: () => Date;
}

export const dynamoTargetFrom = ({ table, dynamodb }: StoreSettings): DynamoTarget => ({
  client: createDocumentClient(dynamodb),
  table,
});
