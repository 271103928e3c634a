// How the plant routes word what docs/api.md leaves to them: a path id that is none (400), and what PUT
// and PATCH share: a field rule or another id than the path's (400), and a stale If-Match (412).
import { PlantPath } from '#lib/plants/params.ts';
import { otherIdMessage, versionMismatchMessage } from '#lib/routes/plantUpdates.ts';
import type { ErrorStatus, ErrorWordings } from './errors.ts';
import { type RouteSchemas, refusalOf } from './schemas.ts';

/** The plant routes' wordings: the 400 of a route whose only input is its path. */
export const plantErrors = ({ body }: RouteSchemas): ErrorWordings =>
  body
    ? {}
    : {
        400: {
          description: 'The path id is not an integer in plain decimal digits within the id range.',
          examples: { badId: ['An id written as 007', refusalOf(PlantPath, { id: '007' })] },
        },
      };

/** The 400 of PUT and PATCH: the route's field rule (its rule and example), or another id. */
export const badUpdate = (ruleText: string, fieldRule: ErrorStatus['examples']): ErrorStatus => ({
  description: `The path id, the body or \`If-Match\` is not valid: the body is missing, not JSON or not an object, breaks a field rule${ruleText}, or carries another id than the path. The message names the field and why.`,
  examples: { ...fieldRule, otherId: ['The body names another plant', otherIdMessage(2, 1)] },
});

export const staleVersion: ErrorStatus = {
  description:
    'The plant no longer has the version `If-Match` names: someone updated it since it was read. Nothing was written; read it again and retry.',
  examples: { changed: ['A concurrent update won', versionMismatchMessage(1)] },
};
