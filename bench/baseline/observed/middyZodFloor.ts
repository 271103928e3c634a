// POST /plants: ./observedFloor.ts's job and line in the service's shape, nothing else of ours:
// Middy with its defaults (the timeout guard), the caller checked, @middy/http-json-body-parser,
// a zod/mini schema. What ours costs past it is our pipeline's. Not shipped.
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { callerOf, fail, type Reply } from '../common.ts';
import { type Seen, storePlant } from '../createPlant.ts';
import { observed } from './observedFloor.ts';

const NewPlant = z.object({ id: z.int(), name: z.string(), tag: z.optional(z.string()) });
// what a request learned (its caller, its plant), for the line observed() writes after it
const seenOf = new WeakMap<APIGatewayProxyEventV2, Seen>();

const create = middy<APIGatewayProxyEventV2, Reply>()
  .use({
    before: async ({ event }) => {
      const sub = await callerOf(event);
      if (!sub) return fail(401, 'Unauthorized');
      (seenOf.get(event) as Seen).sub = sub;
    },
    // as ours answers them: the parser's 415 and 422 (malformed JSON), Middy's timeout
    onError: (request) => {
      const status = (request.error as { statusCode?: number }).statusCode;
      if (status === 415) request.response = fail(415, 'Unsupported Media Type');
      else request.response = status ? fail(400, 'Invalid JSON') : fail(503, 'Unavailable');
    },
  })
  .use(httpJsonBodyParser())
  .handler(async (event) => {
    const plant = NewPlant.safeParse(event.body);
    if (!plant.success) return fail(400, 'Invalid plant');
    const seen = seenOf.get(event) as Seen;
    return storePlant(plant.data, seen.sub as string, seen);
  });

export const handler = observed((event, seen, context) => {
  seenOf.set(event, seen);
  return create(event, context);
});
