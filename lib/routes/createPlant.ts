// POST /plants: store a NewPlant once; a retry of the same plant answers 200 and writes nothing.
import { jsonRequestBody } from '#lib/http/jsonBody.ts';
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { NewPlant } from '#lib/plants/schemas.ts';
import type { PlantStore } from '#lib/plants/store.ts';
import { contentOf } from '#lib/plants/views.ts';
import { storeUnavailable } from '#lib/routes/plantReplies.ts';
import { listedRoute } from '#lib/routes/routeList.ts';

export const createPlantRoute = {
  ...listedRoute('createPlant'),
  body: jsonRequestBody(NewPlant, { describedAs: 'a NewPlant', integerFields: ['id'] }),
};

/** The 409: another plant of the caller's holds the id, or another caller's (never named). */
export const conflictMessage = (id: number, reason: 'content' | 'notOwner') =>
  reason === 'content'
    ? `A plant with id ${id} already exists with different content: read it, or choose another id`
    : `A plant with id ${id} already exists: choose another id`;

export const createPlantHandler = ({
  plantStore,
  ...http
}: HttpDependencies & { plantStore: Pick<PlantStore, 'create'> }) =>
  httpRoute(http, createPlantRoute, async ({ body, caller, signal }) => {
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
  });
