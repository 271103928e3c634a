// PUT /plants/{id} in the published document.
import { IdentifiedPlant, PlantUpdate } from '#lib/plants/schemas.ts';
import type { OperationDescription } from '../document.ts';
import { monstera } from '../examples.ts';
import { badUpdate, staleVersion } from '../plantErrors.ts';
import { etagHeader, ifMatchParameter, jsonSuccess } from '../responses.ts';
import { refusalOf } from '../schemas.ts';

export const operation: OperationDescription = {
  summary: 'Update a plant',
  description:
    "Replaces the fields of the caller's plant (an optional field left out, such as `tag`, is removed). With `If-Match`, only while the plant still has that version: a concurrent update answers 412 and nothing is written. Never creates a plant: a new plant comes from `POST /plants`.",
  parameters: [ifMatchParameter],
  requestBody: {
    description:
      "The plant's new fields. An id, if present, must be the path's id, so that what was read can be sent back.",
    examples: {
      rename: ['A new name, no tag', { name: 'Monstera deliciosa' }],
      asRead: ['A plant as read, changed', { ...monstera, tag: 'outdoor' }],
    },
  },
  responses: {
    200: jsonSuccess(
      'The plant as updated, with its new `ETag`.',
      IdentifiedPlant,
      { updated: ['The updated plant', { id: 1, name: 'Monstera deliciosa' }] },
      etagHeader,
    ),
  },
  errors: {
    400: badUpdate('', {
      missingName: ['A required field is missing', refusalOf(PlantUpdate, {})],
    }),
    412: staleVersion,
  },
};
