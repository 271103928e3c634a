// Clients of the local emulators, with fixed credentials: this machine's real ones stay out.
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
