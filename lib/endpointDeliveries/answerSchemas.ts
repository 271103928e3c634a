// A delivery as the API answers it, for the OpenAPI document: queued, and its attempts.
import * as z from 'zod/mini';
import { PING } from '#lib/endpointDeliveries/store.ts';
import { EVENT_TYPES } from '#lib/plants/eventTypes.ts';
import { schemaNames } from '#lib/plants/schemas.ts';

/** The answer of a ping and a resend: the delivery is on its way. */
export const QueuedDelivery = /* @__PURE__ */ (() =>
  z.object({
    webhookId: z.string().register(z.globalRegistry, {
      description: 'The webhook-id the deliveries carry (header `webhook-id`), and its attempts.',
      examples: ['msg_p5jXN8AQM9LWM0D4loKWxJ'],
    }),
  }))();

/** One delivery attempt as `GET /webhooks/{id}/attempts` answers it (for the document). */
export const Attempt = /* @__PURE__ */ (() =>
  z
    .object({
      webhookId: QueuedDelivery.shape.webhookId,
      type: z.enum([...EVENT_TYPES, PING]).register(z.globalRegistry, {
        description: 'The event type, or `webhook.ping`.',
      }),
      attempt: z.int().register(z.globalRegistry, {
        description: 'Which attempt of the delivery: 1 for the first (a resend starts again at 1).',
        examples: [1],
      }),
      at: z.string().register(z.globalRegistry, {
        description: 'When it started (ISO 8601, UTC).',
        format: 'date-time',
        examples: ['2026-11-25T12:00:00.000Z'],
      }),
      status: z.optional(
        z.int().register(z.globalRegistry, {
          description: "The receiver's HTTP status, a 3xx included; absent when it did not answer.",
          examples: [200],
        }),
      ),
      error: z.optional(
        z.string().register(z.globalRegistry, {
          description:
            'Why it failed: no answer, a timeout, a redirect not followed, a refused address; `exhausted: ...` when it waited so long that it was given up unsent (resend it).',
          examples: ['no answer within 5000 ms'],
        }),
      ),
      durationMs: z.number().register(z.globalRegistry, {
        description: 'How long it took, in milliseconds.',
        examples: [84],
      }),
    })
    .register(z.globalRegistry, {
      description: 'One delivery attempt to your endpoint, kept 14 days.',
      examples: [
        {
          webhookId: 'msg_p5jXN8AQM9LWM0D4loKWxJ',
          type: 'plant.added',
          attempt: 1,
          at: '2026-11-25T12:00:00.000Z',
          status: 200,
          durationMs: 84,
        },
      ],
    }))();

// The document's names, for the generator only: a bundle drops the whole call (pure, result unread)
/* @__PURE__ */ (() =>
  schemaNames.add(QueuedDelivery, { id: 'QueuedDelivery' }).add(Attempt, { id: 'Attempt' }))();
