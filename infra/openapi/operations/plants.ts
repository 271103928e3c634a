// The plant routes in the published document, each by its function's name: its words, its successes
// and its own errors; and how they word what docs/api.md leaves to them.
import * as z from 'zod/mini';
import { BODY_REFUSALS } from '#lib/http/jsonBody.ts';
import { LIST_LIMIT_MAX } from '#lib/http/paging.ts';
import { ListQuery } from '#lib/plants/listQuery.ts';
import { PlantPath } from '#lib/plants/params.ts';
import { IdentifiedPlant, Plant, PlantPatch, PlantUpdate } from '#lib/plants/schemas.ts';
import { conflictMessage } from '#lib/routes/createPlant.ts';
import { INVALID_CURSOR } from '#lib/routes/listPlants.ts';
import patchPlant from '#lib/routes/patchPlant.ts';
import { otherIdMessage, versionMismatchMessage } from '#lib/routes/plantUpdates.ts';
import type { OperationDescription } from '../document.ts';
import type { ErrorStatus, ErrorWordings } from '../errors.ts';
import { fern, monstera } from '../examples.ts';
import {
  commonHeaders,
  etagHeader,
  ifMatchParameter,
  jsonSuccess,
  nextPageLink,
} from '../responses.ts';
import { exampleOf, type RouteSchemas, refusalOf } from '../schemas.ts';

export const tag = 'The plants in the store';

const badPlantId: ErrorStatus = {
  description: 'The path id is not an integer in plain decimal digits within the id range.',
  examples: { badId: ['An id written as 007', refusalOf(PlantPath, { id: '007' })] },
};

/** The plant routes' wordings: the 400 of a route whose only input is its path. */
export const errors = ({ body }: RouteSchemas): ErrorWordings => (body ? {} : { 400: badPlantId });

/** The 400 of PUT and PATCH: the route's field rule (its rule and example), or another id. */
const badUpdate = (ruleText: string, fieldRule: ErrorStatus['examples']): ErrorStatus => ({
  description: `The path id, the body or \`If-Match\` is not valid: the body is missing, not JSON or not an object, breaks a field rule${ruleText}, or carries another id than the path. The message names the field and why.`,
  examples: { ...fieldRule, otherId: ['The body names another plant', otherIdMessage(2, 1)] },
});

const staleVersion: ErrorStatus = {
  description:
    'The plant no longer has the version `If-Match` names: someone updated it since it was read. Nothing was written; read it again and retry.',
  examples: { changed: ['A concurrent update won', versionMismatchMessage(1)] },
};

export const operations = {
  createPlant: {
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
          withoutTag: ['A plant without a tag', { name: fern.name }],
        },
      ),
      409: {
        description:
          'A plant with this id is already stored with different content (any field), or by another caller (who is never named). A stored plant is never overwritten.',
        examples: {
          conflict: ['The id holds another plant', conflictMessage(1, 'content')],
          taken: ["The id is another caller's", conflictMessage(1, 'notOwner')],
        },
      },
    },
  },
  deletePlant: {
    summary: 'Delete a plant',
    description:
      "Deletes a single plant based on the ID supplied: the caller's own. A retry after a success answers 404: the effect is the same, the status need not be.",
    responses: { 204: { description: 'Plant deleted', headers: commonHeaders } },
  },
  getPlant: {
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
  },
  listPlants: {
    summary: "List the caller's plants",
    description:
      "Returns all plants from the system that the user has access to: the caller's own, oldest first, a page at a time; with `tag`, only those with exactly that tag. When more remain, the `Link` header holds the next page's address (with the same `limit` and `tag`); the last page has none. One request reads one page. A query parameter the list does not know answers 400 naming it, never ignored.",
    responses: {
      200: jsonSuccess(
        "A page of the caller's plants, oldest first (`[]` when there are none), each with its id, and an optional field only when set.",
        z.array(IdentifiedPlant),
        { page: ['Two plants', [monstera, fern]], empty: ['No plants yet', []] },
        nextPageLink(
          'Present when more plants remain: `<next page URL>; rel="next"` (RFC 8288), built from the host and path of the request, keeping its `limit` and `tag`.',
          '<https://api.example.com/plants?limit=20&cursor=WyIyMDI2LTExLTIyVDEwOjAwOjAwLjAwMFoiLDFd.Xy3kQ9_aBc1dEf2g>; rel="next"',
        ),
      ),
      400: {
        description:
          '`limit`, `tag` or `cursor` is not valid, or the query has a parameter the list does not know. The message names the parameter and why.',
        examples: {
          badLimit: [
            'A limit out of range',
            refusalOf(ListQuery, { limit: String(LIST_LIMIT_MAX + 1) }),
          ],
          emptyTag: ['An empty tag', refusalOf(ListQuery, { tag: '' })],
          unknownParameter: [
            'A parameter the list does not know',
            refusalOf(ListQuery, { type: 'indoor' }),
          ],
          badCursor: ['A cursor that was altered', INVALID_CURSOR],
        },
      },
    },
  },
  patchPlant: {
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
  },
  updatePlant: {
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
      400: badUpdate('', {
        missingName: ['A required field is missing', refusalOf(PlantUpdate, {})],
      }),
      412: staleVersion,
    },
  },
} satisfies Record<string, OperationDescription>;
