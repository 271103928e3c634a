// PATCH /plants/{id} in the published document.
import { BODY_REFUSALS } from '#lib/http/jsonBody.ts';
import { IdentifiedPlant, PlantPatch } from '#lib/plants/schemas.ts';
import patchPlant from '#lib/routes/patchPlant.ts';
import type { OperationDescription } from '../document.ts';
import { monstera } from '../examples.ts';
import { badUpdate, staleVersion } from '../plantErrors.ts';
import { etagHeader, ifMatchParameter, jsonSuccess } from '../responses.ts';
import { refusalOf } from '../schemas.ts';

export const operation: OperationDescription = {
  summary: 'Change some fields of a plant',
  description:
    'Changes only the fields the body gives (a JSON Merge Patch, RFC 7396): `null` removes an optional field such as `tag`, and a field left out stays as it is, so a client that does not know a field cannot erase it. Every PATCH that succeeds writes a new version, `{}` included. With `If-Match`, only while the plant still has that version: a concurrent update answers 412 and nothing is written. Never creates a plant.',
  parameters: [ifMatchParameter],
  requestBody: {
    description:
      "The changes, as `application/merge-patch+json` or `application/json`. An id, if present, must be the path's id.",
    examples: {
      retag: ['A new tag, the name kept', { tag: 'outdoor' }],
      untag: ['The tag removed', { tag: null }],
    },
  },
  responses: {
    200: jsonSuccess(
      'The plant as changed, with its new `ETag`.',
      IdentifiedPlant,
      { changed: ['The changed plant', { ...monstera, tag: 'outdoor' }] },
      etagHeader,
    ),
  },
  errors: {
    400: badUpdate(' (`"name": null` included: a plant always has a name)', {
      nullName: ['A required field removed', refusalOf(PlantPatch, { name: null })],
    }),
    412: staleVersion,
    415: {
      description:
        "`Content-Type` is missing, or neither `application/merge-patch+json` nor `application/json` (with or without parameters such as `charset`). Another JSON type, such as JSON Patch's `application/json-patch+json`, means something else.",
      examples: {
        jsonPatch: [
          'A JSON Patch (RFC 6902) sent instead',
          BODY_REFUSALS.mediaType(patchPlant.body?.mediaTypes),
        ],
      },
    },
  },
};
