// The events a caller's own endpoints are sent (OpenAPI 3.1 `webhooks`), one per delivered type:
// a type without its words here fails the typecheck.
import type { DeliveredType } from '#lib/endpointDeliveries/store.ts';
import { IdentifiedPlant } from '#lib/plants/schemas.ts';
import { type Json, schemaRef } from '../schemas.ts';
import { signatureHeaders } from './plantAdded.ts';

const WORDS: Record<DeliveredType, { summary: string; description: string; data: Json }> = {
  'plant.added': {
    summary: 'One of your plants was added',
    description: 'A first create of one of your plants (never a replay).',
    data: schemaRef(IdentifiedPlant),
  },
  'plant.updated': {
    summary: 'One of your plants was changed',
    description: 'A `PUT` or `PATCH` of one of your plants that wrote: the plant as it now is.',
    data: schemaRef(IdentifiedPlant),
  },
  'plant.deleted': {
    summary: 'One of your plants was deleted',
    description: 'A `DELETE` of one of your plants that deleted it: its id.',
    data: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
  },
  'webhook.ping': {
    summary: 'A ping of your endpoint',
    description:
      'Sent by `POST /webhooks/{id}/ping`, even to a disabled endpoint; no type of `events`.',
    data: {
      type: 'object',
      required: ['endpointId'],
      properties: { endpointId: { type: 'string' } },
    },
  },
};

export const endpointEvents = Object.fromEntries(
  Object.entries(WORDS).map(([type, { summary, description, data }]) => [
    type,
    {
      post: {
        tags: ['webhooks'],
        // endpointPlantAdded: the operator's receiver has plantAdded
        operationId: `endpoint${type.replace(/(^|\.)(\w)/g, (_, _dot, first: string) => first.toUpperCase())}`,
        summary,
        description: `${description} POSTed to each of your endpoints whose \`events\` hold \`${type}\` (a ping: to the one pinged), signed with its secret (both during a rotation); retried on failure with the same \`webhook-id\`. Events arrive in any order: for a plant's latest state, \`GET\` it.`,
        parameters: signatureHeaders(),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['type', 'timestamp', 'data'],
                properties: {
                  type: { const: type },
                  timestamp: { type: 'string', format: 'date-time' },
                  data,
                },
              },
            },
          },
        },
        responses: {
          200: {
            description:
              'Any 2xx says the delivery arrived. A 410 disables the endpoint; anything else (a redirect too), a refused connection or no answer within 5 seconds is retried on the schedule.',
          },
        },
      },
    },
  ]),
);
