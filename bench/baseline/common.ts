// What every bare baseline handler shares, and nothing more than a hand-written Lambda would:
// the same jose verification and keys, the same DynamoDB client, JSON replies. No Middy, no Zod,
// no Powertools. The measuring stick, not shipped.
import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify } from 'jose';
import { createDocumentClient } from '#lib/plants/dynamoClient.ts';

const env = process.env;
export const table = env.PLANTS_TABLE ?? '';
const issuer = env.AUTH_ISSUER ?? '';
const audience = env.AUTH_AUDIENCE ?? '';
const keySet = env.AUTH_JWKS_FILE
  ? createLocalJWKSet(JSON.parse(readFileSync(env.AUTH_JWKS_FILE, 'utf8')))
  : createRemoteJWKSet(new URL(env.AUTH_JWKS_URL ?? `${env.AUTH_ISSUER}/.well-known/jwks.json`));
export const client = createDocumentClient({
  endpoint: env.DYNAMODB_ENDPOINT,
  region: env.AWS_REGION ?? 'us-east-1',
  maxAttempts: 3,
  connectTimeoutMs: 500,
  requestTimeoutMs: 1000,
});

export const reply = (
  statusCode: number,
  body?: unknown,
): APIGatewayProxyStructuredResultV2 & { statusCode: number } => ({
  statusCode,
  headers: { 'Content-Type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});
export const fail = (status: number, message: string) => reply(status, { error: status, message });

/** The caller's sub, or undefined when the token is not valid. */
export const callerOf = (event: APIGatewayProxyEventV2) => subOf(event.headers?.authorization);

/** The sub of an Authorization header's bearer token, or undefined when it is not valid. */
export const subOf = async (authorization: string | undefined): Promise<string | undefined> => {
  if (!authorization?.startsWith('Bearer ')) return undefined;
  try {
    const { payload } = await jwtVerify(authorization.slice(7), keySet, {
      issuer,
      audience,
      algorithms: ['RS256', 'ES256'],
      clockTolerance: 60,
    });
    return payload.sub;
  } catch {
    return undefined;
  }
};

/** The path id, when it is an integer. */
export const pathId = (event: APIGatewayProxyEventV2) => {
  const id = Number(event.pathParameters?.id);
  return Number.isSafeInteger(id) ? id : undefined;
};

/** A stored item as the routes answer it. */
export const plantOf = (item: Record<string, unknown>) =>
  item.tag === undefined
    ? { id: item.id, name: item.name }
    : { id: item.id, name: item.name, tag: item.tag };
