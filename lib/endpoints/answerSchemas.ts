// What the endpoint routes answer, for the OpenAPI document: the endpoint, and its secret.
import * as z from 'zod/mini';
import { description, disabled, events, url } from '#lib/endpoints/requestSchemas.ts';
import { schemaNames } from '#lib/plants/schemas.ts';

/** An endpoint as the API answers it (for the document: the routes answer endpointView's). */
export const Endpoint = /* @__PURE__ */ (() =>
  z
    .object({
      id: z.string().register(z.globalRegistry, {
        description: "The endpoint's id: ep_ and random characters.",
        examples: ['ep_2Un7Klsvqo_UuPRYKPuHxM'],
      }),
      url,
      // the request's rule, with what an answer's list means
      events: events.clone().register(z.globalRegistry, {
        description:
          'The event types delivered to it. One registered or replaced without events takes every type, those a later version adds too, and lists every type the service has now.',
        examples: [['plant.added', 'plant.deleted']],
      }),
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

// The document's names, for the generator only: a bundle drops the whole call (pure, result unread)
/* @__PURE__ */ (() =>
  schemaNames
    .add(Endpoint, { id: 'Endpoint' })
    .add(EndpointWithSecret, { id: 'EndpointWithSecret' })
    .add(EndpointSecret, { id: 'EndpointSecret' }))();
