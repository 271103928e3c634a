// The "plant added" webhook in the published document (OpenAPI 3.1 `webhooks`), under the name
// the original document gives it.
import { IdentifiedPlant } from '#lib/plants/schemas.ts';
import { monstera } from '../examples.ts';
import { schemaRef } from '../schemas.ts';

/** Standard Webhooks' headers, as every delivery carries them (the callers' endpoints' too). */
export const signatureHeaders = () => plantAdded.operation.post.parameters;

export const plantAdded = {
  name: '/plant/webhook',
  operation: {
    post: {
      tags: ['webhooks'],
      operationId: 'plantAdded',
      summary: 'A plant was added',
      description:
        "Information about a new plant added to the store: POSTed to the deployment's `WEBHOOK_URL` once for each newly stored plant (a first create; never a replay, an update or a delete), within seconds of its `POST /plants` answer, signed as Standard Webhooks says. Delivery is at least once: a receiver deduplicates by `webhook-id`, which every retry and redrive of one event repeats.",
      parameters: [
        {
          name: 'webhook-id',
          in: 'header',
          required: true,
          description:
            'The event: the same on every attempt and redrive of it, so a receiver that has seen it can answer 2xx and do nothing.',
          schema: { type: 'string', pattern: '^msg_[A-Za-z0-9_-]+$' },
          example: 'msg_2Un7Klsvqo_UuPRYKPuHxMd57B7sCT1a',
        },
        {
          name: 'webhook-timestamp',
          in: 'header',
          required: true,
          description:
            'When this attempt was signed, in seconds since the epoch: refuse one more than 5 minutes from your clock.',
          schema: { type: 'string', pattern: '^[0-9]+$' },
          example: '1795408648',
        },
        {
          name: 'webhook-signature',
          in: 'header',
          required: true,
          description:
            '`v1,<base64 HMAC-SHA256 of "webhook-id.webhook-timestamp.body">` for each secret that signs (two during a rotation), separated by spaces; the key is the base64 after `whsec_`. Any one that matches verifies the delivery.',
          schema: { type: 'string' },
          example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
        },
      ],
      requestBody: {
        description:
          'Plant added to the store: its id and its fields (an optional one only when set).',
        required: true,
        content: {
          'application/json': {
            schema: schemaRef(IdentifiedPlant),
            examples: {
              added: { summary: 'A plant with a tag', value: monstera },
            },
          },
        },
      },
      responses: {
        200: {
          description:
            'Any 2xx says the delivery arrived. Anything else, a refused connection or no answer within 5 seconds is retried with backoff, then kept for a redrive.',
        },
      },
    },
  },
};
