// The store's domain result → the HTTP answer to POST /plants.
import { httpError, serviceUnavailable } from '#lib/http/httpError.ts';
import { jsonResponse } from '#lib/http/responses.ts';
import type { HttpResponse } from '#lib/http/types.ts';
import { toPlant } from '#lib/plant.ts';
import type { CreateResult } from '#lib/store/plantStore.ts';

export const createPlantResponse = (result: CreateResult): HttpResponse => {
  switch (result.outcome) {
    case 'created':
    case 'replayed':
      return jsonResponse(200, toPlant(result.plant));
    case 'conflict':
      throw httpError(
        409,
        `A plant with id ${result.existing.id} already exists with a different name or tag`,
      );
    case 'unavailable':
      throw serviceUnavailable(
        'The plant store is busy or unreachable: retry in a few seconds',
        result.cause,
      );
  }
};
