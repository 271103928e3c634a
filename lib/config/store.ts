// The plants table and how patiently its client talks to DynamoDB.
import * as z from 'zod/mini';
import { defineSettings, httpUrl, positiveInt, required } from './load.ts';

export interface DynamoDbSettings {
  endpoint: string | undefined;
  region: string;
  maxAttempts: number;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
}

export interface StoreSettings {
  table: string;
  dynamodb: DynamoDbSettings;
}

export const storeSettings = defineSettings(
  z.object({
    PLANTS_TABLE: required('the DynamoDB table name'),
    DYNAMODB_ENDPOINT: z.optional(httpUrl),
    // Lambda always sets AWS_REGION; the default serves local runs against DynamoDB Local
    AWS_REGION: z._default(z.string().check(z.minLength(1)), 'us-east-1'),
    DYNAMODB_MAX_ATTEMPTS: positiveInt(3),
    // per attempt: with 3 attempts and the SDK's backoff a store outage answers 503 within 6 s
    // (test/support/retryBound.ts), which leaves room for a 2 s key-set fetch inside the
    // function's 10 s timeout (serverless.yml) less the handler's 500 ms margin
    DYNAMODB_CONNECT_TIMEOUT_MS: positiveInt(500),
    DYNAMODB_REQUEST_TIMEOUT_MS: positiveInt(1000),
  }),
  (env): StoreSettings => ({
    table: env.PLANTS_TABLE,
    dynamodb: {
      endpoint: env.DYNAMODB_ENDPOINT,
      region: env.AWS_REGION,
      maxAttempts: env.DYNAMODB_MAX_ATTEMPTS,
      connectTimeoutMs: env.DYNAMODB_CONNECT_TIMEOUT_MS,
      requestTimeoutMs: env.DYNAMODB_REQUEST_TIMEOUT_MS,
    },
  }),
);
