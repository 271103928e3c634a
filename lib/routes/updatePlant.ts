// PUT /plants/{id}: replace the caller's plant's content, in one conditional update. With
// If-Match, only while the plant still has that version (else 412); never creating a plant.
import { parseIfMatch } from '#lib/http/conditional.ts';
import { jsonRequestBody } from '#lib/http/jsonBody.ts';
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { PlantPath } from '#lib/plants/params.ts';
import { PlantUpdate } from '#lib/plants/schemas.ts';
import type { PlantStore } from '#lib/plants/store.ts';
import { plantNotFound, plantWithEtag, storeUnavailable } from '#lib/routes/plantReplies.ts';
import { plantRoute } from '#lib/routes/routeList.ts';

export interface UpdatePlantDependencies extends HttpDependencies {
  plantStore: Pick<PlantStore, 'update'>;
}

/** The versions an If-Match accepts: our tags are versions; any other tag matches none. */
const versionsOf = (tags: string[]) => [
  ...new Set(tags.filter((tag) => /^[1-9][0-9]{0,15}$/.test(tag)).map(Number)),
];

/** DynamoDB's limit on the values of one IN condition. */
const MAX_IF_MATCH_VERSIONS = 100;

/** What the pipeline checks of the request, and the document describes. */
export const updatePlantRoute = {
  ...plantRoute('updatePlant'),
  path: PlantPath,
  body: jsonRequestBody(PlantUpdate, { describedAs: 'a Plant', integerFields: ['id'] }),
};

export const otherIdMessage = (bodyId: number, pathId: number) =>
  `id in the body (${bodyId}) must be the id in the path (${pathId}), or be left out`;

export const versionMismatchMessage = (id: number) =>
  `Plant ${id} has changed since it was read (If-Match does not match its ETag): read it again, then retry`;

export const updatePlantHandler = ({ plantStore, ...http }: UpdatePlantDependencies) =>
  httpRoute(
    http,
    updatePlantRoute,
    async ({ path: { id }, body: { id: bodyId, ...content }, headers, caller, signal }) => {
      if (bodyId !== undefined && bodyId !== id) {
        return {
          status: 400,
          message: otherIdMessage(bodyId, id),
          metric: 'ValidationFailures',
        };
      }
      const ifMatch = parseIfMatch(headers['if-match']);
      if (ifMatch === 'malformed') {
        return {
          status: 400,
          message: 'If-Match must be * or the ETag of the plant as read, such as "1"',
          metric: 'ValidationFailures',
        };
      }
      const expectedVersions = ifMatch && !ifMatch.any ? versionsOf(ifMatch.tags) : undefined;
      if (expectedVersions && expectedVersions.length > MAX_IF_MATCH_VERSIONS) {
        return {
          status: 400,
          message: `If-Match lists more than ${MAX_IF_MATCH_VERSIONS} entity tags: send the one ETag the plant was read with`,
          metric: 'ValidationFailures',
        };
      }
      const result = await plantStore.update(
        id,
        caller.sub,
        { content, expectedVersions },
        { signal },
      );
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
        case 'notFound':
          return plantNotFound(id, result);
        case 'unavailable':
          return storeUnavailable(result.cause, { plantId: id });
      }
    },
  );
