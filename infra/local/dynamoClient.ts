// Clients of the local emulators (DynamoDB Local, its streams, fauxqs), which accept any
// credentials: fixed ones keep this machine's real AWS credentials out of local runs.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';

export const localClientConfig = (endpoint: string) => ({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

export const localDynamoClient = (endpoint: string) =>
  new DynamoDBClient(localClientConfig(endpoint));

export const localStreamsClient = (endpoint: string) =>
  new DynamoDBStreamsClient(localClientConfig(endpoint));
