// POST /plants in the published document.
import { Plant } from '#lib/plants/schemas.ts';
import { conflictMessage } from '#lib/routes/createPlant.ts';
import type { OperationDescription } from '../document.ts';
import { fern, monstera } from '../examples.ts';
import { jsonSuccess } from '../responses.ts';
import { exampleOf } from '../schemas.ts';

const { id: _, ...fernContent } = fern;

export const operation: OperationDescription = {
  summary: 'Create a plant',
  description:
    "Creates a new plant in the store. Retries are safe: the same `id` with the same fields, sent again by the caller who created it, answers 200 with that plant and writes nothing; the same `id` with any field different, or another caller's plant, answers 409. Properties that are not fields of NewPlant are ignored: never stored, never echoed.",
  requestBody: {
    description: 'The plant to create.',
    examples: {
      withTag: ['A plant with a tag', monstera],
      withoutTag: ['A plant without a tag', fern],
    },
  },
  responses: {
    200: jsonSuccess(
      'The plant is stored, or was already stored by this caller with the same fields (an identical retry writes nothing). The body is the Plant: no id, and an optional field only when the plant has it.',
      Plant,
      {
        withTag: ['A plant with a tag', exampleOf(Plant)],
        withoutTag: ['A plant without a tag', fernContent],
      },
    ),
  },
  errors: {
    409: {
      description:
        'A plant with this id is already stored with different content (any field), or by another caller (who is never named). A stored plant is never overwritten.',
      examples: {
        conflict: ['The id holds another plant', conflictMessage(1, 'content')],
        taken: ["The id is another caller's", conflictMessage(1, 'notOwner')],
      },
    },
  },
};
