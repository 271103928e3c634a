// The one DynamoDB document client per container, with bounded retries and timeouts so that a slow
// or failing store ends in a 503 well inside the function timeout.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '#lib/config.ts';

export const createDocumentClient = ({
  endpoint,
  region,
  maxAttempts,
  connectTimeoutMs,
  requestTimeoutMs,
}: Config['dynamodb']): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region,
      maxAttempts,
      requestHandler: { connectionTimeout: connectTimeoutMs, requestTimeout: requestTimeoutMs },
      // a local endpoint (DynamoDB Local) takes any credentials: never reach for real AWS ones
      ...(endpoint
        ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
    }),
  );
