// The key of the sparse index plantsByCreatorTag (an item attribute, not a plant field): a hash of
// owner and tag, so no `sub` or tag makes two pairs alike and the key fits DynamoDB's 2048 bytes.
import { hash } from 'node:crypto';

/** The item attribute the index is keyed by. */
export const CREATOR_TAG = 'createdByTag';

export const creatorTagOf = (owner: string, tag: string): string =>
  hash('sha256', JSON.stringify([owner, tag]), 'base64url');
