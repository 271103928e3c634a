// GET /plants/{id} in the published document.
import { getPlantRoute } from '#lib/routes/getPlant.ts';
import {
  errorResponses,
  headerRef,
  jsonSuccess,
  type OperationDescription,
  schemaRef,
} from '../shared.ts';
import { badPathId } from './pathId.ts';

export const operation: OperationDescription = {
  route: getPlantRoute,
  summary: 'Read a plant',
  description:
    "Returns the caller's plant with this id, and its version as a strong `ETag` to send back in `If-Match` when updating it.",
  responses: {
    200: jsonSuccess(
      'The plant, with its id, and an optional field only when set.',
      schemaRef('PlantWithId'),
      { plant: { summary: 'A plant', value: { id: 1, name: 'Monstera', tag: 'indoor' } } },
      { ETag: headerRef('ETag') },
    ),
    ...errorResponses([400, 401, 403, 404, 500, 503], { 400: badPathId }),
  },
};
