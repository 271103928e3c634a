// What every bare baseline handler shares, and nothing more than a hand-written Lambda would:
// the same jose verification and keys, the same DynamoDB client (bench/baseline/store.ts), JSON
// replies; for the endpoints' floors their keys, their answer, their body's check and a new
// secret, as ours make them. No Middy, no Zod, no Powertools (but observed/middyZodFloor.ts). Not shipped.
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import {
  ConditionalCheckFailedException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify } from 'jose';
import { ENDPOINT_PREFIX } from '#lib/endpoints/keys.ts';
import { EVENT_TYPES } from '#lib/plants/eventTypes.ts';

export { client, table, webhooksTable } from './store.ts';

const env = process.env;
const issuer = env.AUTH_ISSUER ?? '';
const audience = env.AUTH_AUDIENCE ?? '';
const keySet = env.AUTH_JWKS_FILE
  ? createLocalJWKSet(JSON.parse(readFileSync(env.AUTH_JWKS_FILE, 'utf8')))
  : createRemoteJWKSet(new URL(env.AUTH_JWKS_URL ?? `${env.AUTH_ISSUER}/.well-known/jwks.json`));

export type Reply = APIGatewayProxyStructuredResultV2 & { statusCode: number };
export const reply = (statusCode: number, body?: unknown): Reply => ({
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

/**
 * A route's floor: the caller verified (401), the path's id checked with `id` (400), then `logic`;
 * a failed condition answered `condition`, any other failure 503.
 */
export const floor =
  <Id = undefined>(
    logic: (event: APIGatewayProxyEventV2, sub: string, id: Id) => Promise<Reply>,
    {
      id,
      condition,
    }: {
      id?: (event: APIGatewayProxyEventV2) => Id | undefined;
      condition?: [number, string];
    } = {},
  ) =>
  async (event: APIGatewayProxyEventV2): Promise<Reply> => {
    const sub = await callerOf(event);
    if (!sub) return fail(401, 'Unauthorized');
    const found = id?.(event);
    if (id && found === undefined) return fail(400, 'Invalid id');
    try {
      return await logic(event, sub, found as Id);
    } catch (error) {
      const failed =
        error instanceof ConditionalCheckFailedException ||
        error instanceof TransactionCanceledException;
      return condition && failed ? fail(...condition) : fail(503, 'Unavailable');
    }
  };

/** The JSON body (base64 or not), or undefined when it is not JSON. */
export const jsonOf = (event: APIGatewayProxyEventV2): Record<string, unknown> | undefined => {
  try {
    const text = event.isBase64Encoded
      ? Buffer.from(event.body ?? '', 'base64').toString()
      : event.body;
    return JSON.parse(text ?? '') ?? {};
  } catch {
    return undefined;
  }
};

/** The query's limit, 20 unless given, when it is from 1 to 100. */
export const limitOf = (event: APIGatewayProxyEventV2) => {
  const limit = Number(event.queryStringParameters?.limit ?? 20);
  return Number.isInteger(limit) && limit >= 1 && limit <= 100 ? limit : undefined;
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

/** The path id, when it is an endpoint's: ep_ and 22 characters. */
export const endpointIdOf = (event: APIGatewayProxyEventV2) => {
  const id = event.pathParameters?.id;
  return id && /^ep_[A-Za-z0-9_-]{22}$/.test(id) ? id : undefined;
};

/** A stored endpoint as the routes answer it: its id, no key, no secrets. */
export const endpointOf = (item: Record<string, unknown>) => {
  const { sk, url, events, description, disabled, disabledReason, createdAt } = item;
  const id = String(sk).slice(ENDPOINT_PREFIX.length);
  return { id, url, events, description, disabled, disabledReason, createdAt };
};

export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * What a POST or PUT sets of an endpoint, checked by hand; undefined when it is not valid. The url
 * as ours checks it where private addresses are allowed (the bench's setting): http or https, and
 * a host that is an address or resolves.
 */
export const endpointBodyOf = async (event: APIGatewayProxyEventV2) => {
  const body = jsonOf(event);
  if (!body) return undefined;
  const { url, events = [...EVENT_TYPES], description, disabled = false } = body;
  const parsed = typeof url === 'string' ? URL.parse(url) : null;
  if (
    typeof url !== 'string' ||
    !parsed ||
    !['https:', 'http:'].includes(parsed.protocol) ||
    !Array.isArray(events) ||
    events.length === 0 ||
    !events.every((type) => (EVENT_TYPES as readonly unknown[]).includes(type)) ||
    (description !== undefined && typeof description !== 'string') ||
    typeof disabled !== 'boolean'
  ) {
    return undefined;
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!isIP(host) && !(await lookup(host).then(Boolean, () => false))) return undefined;
  return {
    url,
    events: events as string[],
    ...(description === undefined ? {} : { description }),
    disabled,
  };
};
