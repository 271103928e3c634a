// The key of the index of a caller's plants with one tag (plantsByCreatorTag): a store attribute,
// never a plant field, written with every create and update of a tagged plant and removed from an
// untagged one, so that a re-tag moves the plant between lists at once and untagged plants stay
// out of the index (sparse). A hash of the owner and the tag: no separator a `sub` or tag could
// contain makes two pairs alike, and the key stays within DynamoDB's 2048 bytes however long the tag.
import { createHash } from 'node:crypto';

/** The item attribute the index is keyed by. */
export const CREATOR_TAG = 'createdByTag';

export const creatorTagOf = (owner: string, tag: string): string =>
  createHash('sha256')
    .update(JSON.stringify([owner, tag]))
    .digest('base64url');
