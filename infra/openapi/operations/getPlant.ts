// GET /plants/{id} in the published document.
import { IdentifiedPlant } from '#lib/plants/schemas.ts';
import type { OperationDescription } from '../document.ts';
import { monstera } from '../examples.ts';
import { etagHeader, jsonSuccess } from '../responses.ts';

export const operation: OperationDescription = {
  summary: 'Read a plant',
  description:
    "Returns the caller's plant with this id, and its version as a strong `ETag` to send back in `If-Match` when updating it.",
  responses: {
    200: jsonSuccess(
      'The plant, with its id, and an optional field only when set.',
      IdentifiedPlant,
      { plant: ['A plant', monstera] },
      etagHeader,
    ),
  },
};
