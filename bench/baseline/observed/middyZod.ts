// POST /plants, the by-hand floor's job and line (./createPlant.ts) in the service's shape and
// nothing else of ours: Middy as its docs write it (its defaults: the timeout guard), the caller
// checked first, @middy/http-json-body-parser, the body checked by a zod/mini schema. What ours
// costs past this is our pipeline's. Not shipped.
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { callerOf, fail } from '../common.ts';
import { type Seen, storePlant } from '../createPlant.ts';
import { observed } from './createPlant.ts';

const NewPlant = z.object({ id: z.int(), name: z.string(), tag: z.optional(z.string()) });
// what a request learned, for its line
const seenOf = new WeakMap<APIGatewayProxyEventV2, Seen>();

const create = middy<APIGatewayProxyEventV2, Awaited<ReturnType<typeof fail>>>()
  .use({
    before: async ({ event }) => {
      const sub = await callerOf(event);
      if (!sub) return fail(401, 'Unauthorized');
      (seenOf.get(event) as Seen).sub = sub;
    },
    // the only error thrown is the parser's
    onError: (request) => {
      request.response = fail(400, 'Invalid JSON');
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
