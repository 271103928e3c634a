// POST /plants: store a NewPlant once; a retry of the same plant answers 200 and writes nothing.
// A conditional PutItem: a replay's existing plant comes back with the failed condition.
import { jsonRequestBody } from '#lib/http/jsonBody.ts';
import { dynamoCreate } from '#lib/plants/dynamoStore.ts';
import { NewPlant } from '#lib/plants/schemas.ts';
import { contentOf } from '#lib/plants/views.ts';
import { storeUnavailable } from '#lib/routes/plantReplies.ts';
import { defineRoute } from '#lib/routes/route.ts';

/** The 409: another plant of the caller's holds the id, or another caller's (never named). */
export const conflictMessage = (id: number, reason: 'content' | 'notOwner') =>
  reason === 'content'
    ? `A plant with id ${id} already exists with different content: read it, or choose another id`
    : `A plant with id ${id} already exists: choose another id`;

export default defineRoute({
  method: 'POST',
  path: '/plants',
  tables: { plants: ['PutItem'] },
  body: jsonRequestBody(NewPlant, { describedAs: 'a NewPlant', integerFields: ['id'] }),
  dependencies: ({ plants }) => ({ plantStore: { create: dynamoCreate(plants) } }),
  handle: async ({ body, caller, signal }, { plantStore }) => {
    const result = await plantStore.create(body, caller.sub, { signal });
    // only once the store has seen the plant: before that the id is unvalidated client input
    const log = { plantId: body.id };
    switch (result.outcome) {
      case 'created':
      case 'replayed':
        return {
          status: 200,
          body: contentOf(result.plant),
          metric: result.outcome === 'created' ? 'PlantsCreated' : 'PlantReplays',
          log,
          outcome: result.outcome,
        };
      case 'conflict':
        return {
          status: 409,
          message: conflictMessage(body.id, result.reason),
          metric: 'PlantConflicts',
          log: { ...log, detail: result.reason },
          outcome: 'conflict',
        };
      case 'unavailable':
        return storeUnavailable(result.cause, log);
    }
  },
});
