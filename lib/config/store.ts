// The tables (the plants, the callers' webhook endpoints) and how patiently their client talks to
// DynamoDB.
import type { Variables } from './load.ts';

export type DynamoDbSettings = ReturnType<typeof dynamoDbSettings>;
export type StoreSettings = ReturnType<typeof storeSettings>;

export const dynamoDbSettings = (read: Variables) => ({
  endpoint: read.httpUrl('DYNAMODB_ENDPOINT'),
  // Lambda always sets AWS_REGION; the default serves local runs against DynamoDB Local
  region: read.optional('AWS_REGION') ?? 'us-east-1',
  maxAttempts: read.positiveInt('DYNAMODB_MAX_ATTEMPTS', 3),
  // per attempt: 3 attempts with backoff answer an outage 503 within 6 s (test/support/retryBound.ts),
  // leaving a 2 s key-set fetch room in the 10 s timeout (serverless.yml) less the 500 ms margin
  connectTimeoutMs: read.positiveInt('DYNAMODB_CONNECT_TIMEOUT_MS', 500),
  requestTimeoutMs: read.positiveInt('DYNAMODB_REQUEST_TIMEOUT_MS', 1000),
});

/** A table, in the variable `name`, and its client. */
const tableSettings =
  <const Name extends string>(name: Name, what: string) =>
  (read: Variables) => ({
    table: read.required(name, what),
    dynamodb: dynamoDbSettings(read),
  });

export const storeSettings = /* @__PURE__ */ tableSettings(
  'PLANTS_TABLE',
  'the DynamoDB table name',
);

/** The table of the callers' own webhook endpoints (infra/dynamodb.yml's WebhooksTable). */
export const webhooksStoreSettings = /* @__PURE__ */ tableSettings(
  'WEBHOOKS_TABLE',
  "the DynamoDB table of the callers' webhook endpoints",
);
