// What a caller sends of its own webhook endpoints (docs/api.md, "A caller's endpoint"):
// the bodies and paths the routes check. zod/mini, as the plant's schemas.
import * as z from 'zod/mini';
import { ENDPOINT_ID } from '#lib/endpoints/store.ts';
import { EVENT_TYPES } from '#lib/plants/eventTypes.ts';
import { schemaNames, wellFormed } from '#lib/plants/schemas.ts';
import { MAX_URL_CHARACTERS_TEXT } from '#lib/ssrf/safePost.ts';

export const MAX_DESCRIPTION_CHARACTERS = 256;

const eventRule = `one of ${EVENT_TYPES.join(', ')}`;

export const url = /* @__PURE__ */ (() =>
  z
    .string({ error: 'url is required: an absolute https URL' })
    .check(wellFormed('url'))
    .register(z.globalRegistry, {
      description: `Where deliveries go: an absolute https URL of at most ${MAX_URL_CHARACTERS_TEXT} characters, with no user info and no fragment, whose host resolves to public addresses only (checked at registration and at every attempt).`,
      format: 'uri',
      examples: ['https://hooks.example.com/plants'],
    }))();

export const events = /* @__PURE__ */ (() =>
  z
    .array(
      z.enum(EVENT_TYPES, {
        error: (issue) =>
          `events must hold event types, each ${eventRule}: ${JSON.stringify(issue.input)} is none`,
      }),
      { error: `events must be an array of event types, each ${eventRule}` },
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

export const description = /* @__PURE__ */ (() =>
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

export const disabled = /* @__PURE__ */ (() =>
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

// The document's names, for the generator only: a bundle drops the whole call (pure, result unread)
/* @__PURE__ */ (() =>
  schemaNames
    .add(NewEndpoint, { id: 'NewEndpoint' })
    .add(EndpointUpdate, { id: 'EndpointUpdate' }))();
