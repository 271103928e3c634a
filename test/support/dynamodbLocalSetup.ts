// Vitest global setup: one DynamoDB Local, in memory, on a free port, for the integration suite.
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodbLocal.ts';
import { freePort } from '../../infra/local/freePort.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  project.provide('dynamodbEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}
