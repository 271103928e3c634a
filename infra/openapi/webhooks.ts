// What the service POSTs to receivers (OpenAPI 3.1 `webhooks`): the operator's "plant added"
// webhook, published as `/plant/webhook`, and the events a caller's own endpoints
// are sent, one per delivered type (a type without its words here fails the typecheck), its
// `data` its row's schema (lib/plants/eventTypes.ts).
import * as z from 'zod/mini';
import { type DeliveredType, PING, pingSchema } from '#lib/endpointDeliveries/store.ts';
import { EVENTS } from '#lib/plants/eventTypes.ts';
import { IdentifiedPlant, schemaNames } from '#lib/plants/schemas.ts';
import { monstera } from './examples.ts';
import { examplesOf, headerParameter } from './responses.ts';
import { type Json, jsonSchema, schemaRef } from './schemas.ts';

/** Standard Webhooks' headers, as every delivery carries them. */
const signatureHeaders = [
  headerParameter(
    'webhook-id',
    'The event: the same on every attempt and redrive of it, so a receiver that has seen it can answer 2xx and do nothing.',
    { type: 'string', pattern: '^msg_[A-Za-z0-9_-]+$' },
    'msg_2Un7Klsvqo_UuPRYKPuHxMd57B7sCT1a',
  ),
  headerParameter(
    'webhook-timestamp',
    'When this attempt was signed, in seconds since the epoch: refuse one more than 5 minutes from your clock.',
    { type: 'string', pattern: '^[0-9]+$' },
    '1795408648',
  ),
  headerParameter(
    'webhook-signature',
    '`v1,<base64 HMAC-SHA256 of "webhook-id.webhook-timestamp.body">` for each secret that signs (two during a rotation), separated by spaces; the key is the base64 after `whsec_`. Any one that matches verifies the delivery.',
    { type: 'string' },
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ),
];

/** The schema of a delivered type's data: its row's, or the ping's. */
export const dataSchemaOf = (type: DeliveredType): z.ZodMiniType =>
  ({ ...EVENTS, [PING]: { schema: pingSchema } })[type].schema({ z, IdentifiedPlant });

const WORDS: Record<DeliveredType, { summary: string; description: string }> = {
  'plant.added': {
    summary: 'One of your plants was added',
    description: 'A first create of one of your plants (never a replay).',
  },
  'plant.updated': {
    summary: 'One of your plants was changed',
    description: 'A `PUT` or `PATCH` of one of your plants that wrote: the plant as it now is.',
  },
  'plant.deleted': {
    summary: 'One of your plants was deleted',
    description: 'A `DELETE` of one of your plants that deleted it: its id.',
  },
  'webhook.ping': {
    summary: 'A ping of your endpoint',
    description:
      'Sent by `POST /webhooks/{id}/ping`, even to a disabled endpoint; no type of `events`.',
  },
};

/** A schema named in components.schemas as a reference to it, any other as itself. */
const published = (schema: z.ZodMiniType) =>
  schemaNames.has(schema) ? schemaRef(schema) : jsonSchema(schema, 'output');

/** A delivery as a receiver is POSTed it, signed, its JSON body; its 200 says which answers count. */
const delivery = (
  operationId: string,
  summary: string,
  description: string,
  body: Json,
  arrived: string,
  bodyDescription?: string,
) => ({
  post: {
    tags: ['webhooks'],
    operationId,
    summary,
    description,
    parameters: signatureHeaders,
    requestBody: {
      ...(bodyDescription && { description: bodyDescription }),
      required: true,
      content: { 'application/json': body },
    },
    responses: { 200: { description: arrived } },
  },
});

const endpointEvents = Object.fromEntries(
  Object.entries(WORDS).map(([type, { summary, description }]) => [
    type,
    delivery(
      // endpointPlantAdded: the operator's receiver has plantAdded
      `endpoint${type.replace(/(^|\.)(\w)/g, (_, _dot, first: string) => first.toUpperCase())}`,
      summary,
      `${description} POSTed to each of your endpoints whose \`events\` hold \`${type}\` (a ping: to the one pinged), signed with its secret (both during a rotation); retried on failure with the same \`webhook-id\`. Events arrive in any order: for a plant's latest state, \`GET\` it.`,
      {
        schema: {
          type: 'object',
          required: ['type', 'timestamp', 'data'],
          properties: {
            type: { const: type },
            timestamp: { type: 'string', format: 'date-time' },
            data: published(dataSchemaOf(type as DeliveredType)),
          },
        },
      },
      'Any 2xx says the delivery arrived. A 410 disables the endpoint; anything else (a redirect too), a refused connection or no answer within 5 seconds is retried on the schedule.',
    ),
  ]),
);

export const webhooks = {
  '/plant/webhook': delivery(
    'plantAdded',
    'A plant was added',
    "Information about a new plant added to the store: POSTed to the deployment's `WEBHOOK_URL` once for each newly stored plant (a first create; never a replay, an update or a delete), within seconds of its `POST /plants` answer, signed as Standard Webhooks says. Delivery is at least once: a receiver deduplicates by `webhook-id`, which every retry and redrive of one event repeats.",
    {
      schema: schemaRef(IdentifiedPlant),
      examples: examplesOf({ added: ['A plant with a tag', monstera] }),
    },
    'Any 2xx says the delivery arrived. Anything else, a refused connection or no answer within 5 seconds is retried with backoff, then kept for a redrive.',
    'Plant added to the store: its id and its fields (an optional one only when set).',
  ),
  ...endpointEvents,
};
