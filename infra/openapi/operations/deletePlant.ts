// DELETE /plants/{id} in the published document.
import { commonHeaders, errorResponses, type OperationEntry, parameterRef } from '../shared.ts';
import { badPathId } from './pathId.ts';

export const deletePlant: OperationEntry = {
  method: 'delete',
  path: '/plants/{id}',
  operation: {
    tags: ['plants'],
    operationId: 'deletePlant',
    summary: 'Delete a plant',
    description:
      "Deletes a single plant based on the ID supplied: the caller's own. A retry after a success answers 404: the effect is the same, the status need not be.",
    parameters: [parameterRef('PlantId')],
    responses: {
      204: { description: 'Plant deleted', headers: commonHeaders },
      ...errorResponses([400, 401, 403, 404, 500, 503], { 400: badPathId }),
    },
  },
};
