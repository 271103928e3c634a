// A client for DynamoDB Local, which accepts any credentials: fixed ones keep real AWS credentials
// of this machine out of local runs, tests and benchmarks.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export const localDynamoClient = (endpoint: string) =>
  new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
