// A plant's conditional update as DynamoDB expressions: only the fields changed (DynamoDB refuses
// a name the expressions do not use), the tag index's key following the tag, the version counted,
// the writing request's trace id kept (none: an earlier one is removed, it would name another).
import { CREATOR_TAG, creatorTagOf } from '#lib/plants/creatorTag.ts';
import { PLANT_FIELDS } from '#lib/plants/schemas.ts';
import type { UpdateRequest } from '#lib/plants/store.ts';

export const plantUpdateExpressions = (
  owner: string,
  { changes, expectedVersions }: UpdateRequest,
  traceId?: string,
) => {
  // none of ours named: version 0, which no plant has
  const versions = expectedVersions?.length === 0 ? [0] : (expectedVersions ?? []);
  // a plant without a version attribute is at version 1
  const versionCondition =
    expectedVersions === undefined
      ? ''
      : ` AND (version IN (${versions.map((_, i) => `:v${i}`).join(', ')})${
          versions.includes(1) ? ' OR attribute_not_exists(version)' : ''
        })`;
  const given = PLANT_FIELDS.filter((field) => changes[field] != null);
  const removed = PLANT_FIELDS.filter((field) => changes[field] === null);
  const { tag } = changes;
  const set = [
    ...given.map((field) => `#f_${field} = :f_${field}`),
    ...(typeof tag === 'string' ? [`${CREATOR_TAG} = :creatorTag`] : []),
    'version = if_not_exists(version, :one) + :one',
    ...(traceId ? ['traceId = :traceId'] : []),
  ];
  const remove = [
    ...removed.map((field) => `#f_${field}`),
    ...(tag === null ? [CREATOR_TAG] : []),
    ...(traceId ? [] : ['traceId']),
  ];
  return {
    // attribute_exists: an update never creates, so a deleted plant stays deleted
    ConditionExpression: `attribute_exists(id) AND createdBy = :owner${versionCondition}`,
    UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
    // names by placeholder (f_ keeps them apart): a field may be a reserved word, as name is
    ...(given.length + removed.length > 0 && {
      ExpressionAttributeNames: Object.fromEntries(
        [...given, ...removed].map((field) => [`#f_${field}`, field]),
      ),
    }),
    ExpressionAttributeValues: {
      ':owner': owner,
      ':one': 1,
      ...Object.fromEntries(given.map((field) => [`:f_${field}`, changes[field]])),
      ...(typeof tag === 'string' ? { ':creatorTag': creatorTagOf(owner, tag) } : {}),
      ...(traceId ? { ':traceId': traceId } : {}),
      ...Object.fromEntries(versions.map((version, i) => [`:v${i}`, version])),
    },
  };
};
