// The tables and the one DynamoDB client every floor shares, made as ours makes it: bounded retries
// and timeouts.
import { createDocumentClient } from '#lib/dynamo/client.ts';

export const table = process.env.PLANTS_TABLE ?? '';
export const webhooksTable = process.env.WEBHOOKS_TABLE ?? '';
export const client = createDocumentClient({
  endpoint: process.env.DYNAMODB_ENDPOINT,
  region: process.env.AWS_REGION ?? 'us-east-1',
  maxAttempts: 3,
  connectTimeoutMs: 500,
  requestTimeoutMs: 1000,
});
