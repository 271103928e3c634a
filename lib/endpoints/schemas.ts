// What a caller sends of its own webhook endpoints (API.md: "A caller's own webhook endpoints"),
// and the endpoint as the API answers it. zod/mini, as the plant's schemas.
import * as z from 'zod/mini';
import { PING } from '#lib/endpointDeliveries/store.ts';
import { ENDPOINT_ID, EVENT_TYPES, MAX_URL_CHARACTERS_TEXT } from '#lib/endpoints/store.ts';
import { schemaNames, wellFormed } from '#lib/plants/schemas.ts';

export const MAX_DESCRIPTION_CHARACTERS = 256;

const eventRule = `one of ${EVENT_TYPES.join(', ')}`;

const url = /* @__PURE__ */ (() =>
  z
    .string({ error: 'url is required: an absolute https URL' })
    .check(wellFormed('url'))
    .register(z.globalRegistry, {
      description: `Where deliveries go: an absolute https URL of at most ${MAX_URL_CHARACTERS_TEXT} characters, with no user info and no fragment, whose host resolves to public addresses only (checked at registration and at every attempt).`,
      format: 'uri',
      examples: ['https://hooks.example.com/plants'],
    }))();

const events = /* @__PURE__ */ (() =>
  z
    .array(
      z.enum(EVENT_TYPES, {
        error: (issue) =>
          `events must hold event types, each ${eventRule}: ${JSON.stringify(issue.input)} is none`,
      }),
      {
        error: `events must be an array of event types, each ${eventRule}`,
      },
    )
    .check(
      z.minLength(
        1,
        `events must name at least one event type (${eventRule}), or be left out for every one`,
      ),
      z.refine(
        (types) => new Set(types).size === types.length,
        'events must not name a type twice',
      ),
    )
    .register(z.globalRegistry, {
      description: `The event types delivered to it; every type when left out (${eventRule}).`,
      examples: [['plant.added', 'plant.deleted']],
    }))();

const description = /* @__PURE__ */ (() =>
  z
    .string({ error: 'description must be a string' })
    .check(
      wellFormed('description'),
      z.refine(
        (text) => [...text].length <= MAX_DESCRIPTION_CHARACTERS,
        `description must be at most ${MAX_DESCRIPTION_CHARACTERS} characters`,
      ),
    )
    .register(z.globalRegistry, {
      description: `Your words for it, at most ${MAX_DESCRIPTION_CHARACTERS} characters (Unicode code points).`,
      examples: ['Our shop'],
    }))();

const disabled = /* @__PURE__ */ (() =>
  z.boolean({ error: 'disabled must be true or false' }).register(z.globalRegistry, {
    description:
      'Whether nothing is sent to it. The service disables an endpoint that answered 410 or failed every attempt for 5 days; false enables it again.',
    examples: [false],
  }))();

const objectOf = <Shape extends Record<string, z.ZodMiniType>>(describedAs: string, shape: Shape) =>
  z.object(shape, { error: () => `Request body must be a JSON object (${describedAs})` });

/** The body of `POST /webhooks`. Other properties are ignored. */
export const NewEndpoint = /* @__PURE__ */ (() =>
  objectOf('a NewEndpoint: url, and optional events and description', {
    url,
    events: z.optional(events),
    description: z.optional(description),
  }).register(z.globalRegistry, {
    description: 'An endpoint to register: where to deliver, and which events.',
    examples: [{ url: 'https://hooks.example.com/plants', events: ['plant.added'] }],
  }))();
export type NewEndpoint = z.infer<typeof NewEndpoint>;

/** The body of `PUT /webhooks/{id}`: what it replaces, each left out taking its default. */
export const EndpointUpdate = /* @__PURE__ */ (() =>
  objectOf('an EndpointUpdate: url, and optional events, description and disabled', {
    url,
    events: z.optional(events),
    description: z.optional(description),
    disabled: z.optional(disabled),
  }).register(z.globalRegistry, {
    description:
      "The endpoint's new settings, replacing the old: events left out is every type, description left out is none, disabled left out is false (so a PUT enables an endpoint the service disabled, unless it sends true).",
    examples: [{ url: 'https://hooks.example.com/plants', disabled: false }],
  }))();
export type EndpointUpdate = z.infer<typeof EndpointUpdate>;

const endpointIdRule =
  'id in the path must be a webhook endpoint id: ep_ and 22 letters, digits, - or _';

/** The path of the routes that address one endpoint. */
export const EndpointPath = /* @__PURE__ */ (() =>
  z.object({
    id: z
      .string({ error: endpointIdRule })
      .check(z.regex(ENDPOINT_ID, endpointIdRule))
      .register(z.globalRegistry, {
        description: "The endpoint's id, as its registration answered it.",
        examples: ['ep_2Un7Klsvqo_UuPRYKPuHxM'],
      }),
  }))();

const webhookIdRule =
  'webhookId in the path must be the webhook-id of an event sent: msg_ and at most 64 letters, digits, - or _';

/** The path of a resend: the endpoint, and the event by its webhook-id. */
export const EventPath = /* @__PURE__ */ (() =>
  z.object({
    id: EndpointPath.shape.id,
    webhookId: z
      .string({ error: webhookIdRule })
      .check(z.regex(/^msg_[\w-]{1,64}$/, webhookIdRule))
      .register(z.globalRegistry, {
        description: "The event's webhook-id, as its attempts and its deliveries' header carry it.",
        examples: ['msg_p5jXN8AQM9LWM0D4loKWxJ'],
      }),
  }))();

/** An endpoint as the API answers it (for the document: the routes answer endpointView's). */
export const Endpoint = /* @__PURE__ */ (() =>
  z
    .object({
      id: z.string().register(z.globalRegistry, {
        description: "The endpoint's id: ep_ and random characters.",
        examples: ['ep_2Un7Klsvqo_UuPRYKPuHxM'],
      }),
      url,
      events,
      description: z.optional(description),
      disabled,
      disabledReason: z.optional(
        z.string().register(z.globalRegistry, {
          description: 'Why the service disabled it; absent once enabled again.',
          examples: ['answered 410 Gone'],
        }),
      ),
      createdAt: z.string().register(z.globalRegistry, {
        description: 'When it was registered (ISO 8601, UTC).',
        format: 'date-time',
        examples: ['2026-11-25T12:00:00.000Z'],
      }),
    })
    .register(z.globalRegistry, {
      description:
        'A webhook endpoint of yours. Its secret is answered only at registration and rotation.',
      examples: [
        {
          id: 'ep_2Un7Klsvqo_UuPRYKPuHxM',
          url: 'https://hooks.example.com/plants',
          events: ['plant.added'],
          disabled: false,
          createdAt: '2026-11-25T12:00:00.000Z',
        },
      ],
    }))();

const secret = /* @__PURE__ */ (() =>
  z.string().register(z.globalRegistry, {
    description:
      'The signing secret (whsec_ and 32 random bytes in base64): shown only here. Verify each delivery with it (Standard Webhooks).',
    examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
  }))();

/** The answer of `POST /webhooks`: the endpoint, with its secret. */
export const EndpointWithSecret = /* @__PURE__ */ (() => z.object({ ...Endpoint.shape, secret }))();

/** The answer of `POST /webhooks/{id}/secret`. */
export const EndpointSecret = /* @__PURE__ */ (() => z.object({ secret }))();

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
            'Why it failed: no answer, a timeout, a redirect not followed, a refused address.',
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
  schemaNames
    .add(NewEndpoint, { id: 'NewEndpoint' })
    .add(EndpointUpdate, { id: 'EndpointUpdate' })
    .add(Endpoint, { id: 'Endpoint' })
    .add(EndpointWithSecret, { id: 'EndpointWithSecret' })
    .add(EndpointSecret, { id: 'EndpointSecret' })
    .add(QueuedDelivery, { id: 'QueuedDelivery' })
    .add(Attempt, { id: 'Attempt' }))();
