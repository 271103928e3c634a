// DELETE /plants/{id} in the published document.
import type { OperationDescription } from '../document.ts';
import { commonHeaders } from '../responses.ts';

export const operation: OperationDescription = {
  summary: 'Delete a plant',
  description:
    "Deletes a single plant based on the ID supplied: the caller's own. A retry after a success answers 404: the effect is the same, the status need not be.",
  responses: { 204: { description: 'Plant deleted', headers: commonHeaders } },
};
