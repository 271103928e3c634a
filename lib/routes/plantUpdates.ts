// What PUT and PATCH /plants/{id} share: the body's id checked, If-Match as versions, one update.
import { parseIfMatch } from '#lib/http/conditional.ts';
import type { RouteRequest } from '#lib/http/pipeline.ts';
import type { Reply } from '#lib/http/reply.ts';
import type { PlantChanges, PlantStore } from '#lib/plants/store.ts';
import { plantRefusal, plantWithEtag } from '#lib/routes/plantReplies.ts';

export const otherIdMessage = (bodyId: number, pathId: number) =>
  `id in the body (${bodyId}) must be the id in the path (${pathId}), or be left out`;

export const versionMismatchMessage = (id: number) =>
  `Plant ${id} has changed since it was read (If-Match does not match its ETag): read it again, then retry`;

/** The versions an If-Match accepts: our tags are versions; any other tag matches none. */
const versionsOf = (tags: string[]) => [
  ...new Set(tags.filter((tag) => /^[1-9][0-9]{0,15}$/.test(tag)).map(Number)),
];

/** DynamoDB's limit on the values of one IN condition. */
const MAX_IF_MATCH_VERSIONS = 100;

/** What PUT and PATCH read of their request. */
type PlantRequest = RouteRequest<{ id?: number | undefined }, { id: number }, unknown>;

const invalid = (message: string): Reply => ({
  status: 400,
  message,
  metric: 'ValidationFailures',
});

/**
 * Updates the caller's plant with `changes`, only at the version If-Match names (when given); the
 * id the body carries, if any, must be the path's.
 */
export const updatePlant = async (
  plantStore: Pick<PlantStore, 'update'>,
  { path: { id }, body: { id: bodyId }, headers, caller, signal }: PlantRequest,
  changes: PlantChanges,
): Promise<Reply> => {
  if (bodyId !== undefined && bodyId !== id) return invalid(otherIdMessage(bodyId, id));
  const ifMatch = parseIfMatch(headers['if-match']);
  if (ifMatch === 'malformed')
    return invalid('If-Match must be * or the ETag of the plant as read, such as "1"');
  const expectedVersions = ifMatch && !ifMatch.any ? versionsOf(ifMatch.tags) : undefined;
  if (expectedVersions && expectedVersions.length > MAX_IF_MATCH_VERSIONS)
    return invalid(
      `If-Match lists more than ${MAX_IF_MATCH_VERSIONS} entity tags: send the one ETag the plant was read with`,
    );
  const result = await plantStore.update(id, caller.sub, { changes, expectedVersions }, { signal });
  switch (result.outcome) {
    case 'updated':
      return plantWithEtag(result.plant, { metric: 'PlantsUpdated', outcome: 'updated' });
    case 'versionMismatch':
      return {
        status: 412,
        message: versionMismatchMessage(id),
        metric: 'PreconditionFailures',
        outcome: 'versionMismatch',
        log: { plantId: id, version: result.version },
      };
    default:
      return plantRefusal(id, result);
  }
};
