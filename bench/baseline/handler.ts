// The measuring stick, not shipped: the least code that does createPlant's job. The same jose
// verification and keys, JSON.parse, the three fields checked by hand, and the same conditional
// PutCommand through the same DynamoDB client; no Middy, no Zod, no Powertools.
import { readFileSync } from 'node:fs';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify } from 'jose';
import { createDocumentClient } from '#lib/plants/dynamoClient.ts';

const env = process.env;
const table = env.PLANTS_TABLE ?? '';
const issuer = env.AUTH_ISSUER ?? '';
const audience = env.AUTH_AUDIENCE ?? '';
const keySet = env.AUTH_JWKS_FILE
  ? createLocalJWKSet(JSON.parse(readFileSync(env.AUTH_JWKS_FILE, 'utf8')))
  : createRemoteJWKSet(new URL(env.AUTH_JWKS_URL ?? `${env.AUTH_ISSUER}/.well-known/jwks.json`));
const client = createDocumentClient({
  endpoint: env.DYNAMODB_ENDPOINT,
  region: env.AWS_REGION ?? 'us-east-1',
  maxAttempts: 3,
  connectTimeoutMs: 500,
  requestTimeoutMs: 1000,
});

const reply = (statusCode: number, body: unknown): APIGatewayProxyResultV2 => ({
  statusCode,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});
const fail = (status: number, message: string) => reply(status, { error: status, message });

export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const authorization = event.headers?.authorization;
  if (!authorization?.startsWith('Bearer ')) return fail(401, 'Unauthorized');
  let sub: string | undefined;
  try {
    ({
      payload: { sub },
    } = await jwtVerify(authorization.slice(7), keySet, {
      issuer,
      audience,
      algorithms: ['RS256', 'ES256'],
      clockTolerance: 60,
    }));
  } catch {
    return fail(401, 'Unauthorized');
  }
  let body: { id?: unknown; name?: unknown; tag?: unknown };
  try {
    const text = event.isBase64Encoded
      ? Buffer.from(event.body ?? '', 'base64').toString()
      : event.body;
    body = JSON.parse(text ?? '');
  } catch {
    return fail(400, 'Invalid JSON');
  }
  const { id, name, tag } = body ?? {};
  if (
    !Number.isSafeInteger(id) ||
    typeof name !== 'string' ||
    (tag !== undefined && typeof tag !== 'string')
  ) {
    return fail(400, 'Invalid plant');
  }
  const item = {
    id,
    name,
    ...(tag === undefined ? {} : { tag }),
    createdAt: new Date().toISOString(),
    createdBy: sub,
  };
  try {
    await client.send(
      new PutCommand({
        TableName: table,
        Item: item,
        ConditionExpression: 'attribute_not_exists(id)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  } catch (error) {
    return error instanceof ConditionalCheckFailedException
      ? fail(409, 'Conflict')
      : fail(503, 'Unavailable');
  }
  return reply(200, tag === undefined ? { name } : { name, tag });
};
