// The list's cursor: where the next page starts, opaque to clients. It carries the last plant's
// position and a check that binds it to the query it was made for (the caller, and the tag or
// none), so that a cursor edited by hand, cut short or taken from another caller's or another
// list's Link header is refused (400) instead of reaching DynamoDB, which would answer a start key
// of another index or partition with a ValidationException (a 500). The check is no secret: a
// caller who forges one only moves through their own plants. sealCursor and openCursor do the same
// for another list (an endpoint's attempts), with its own key.
import { createHash } from 'node:crypto';
import { creatorTagOf } from '#lib/plants/creatorTag.ts';
import type { ListPosition } from '#lib/plants/store.ts';

/** Far above any cursor this service makes. */
export const MAX_CURSOR_LENGTH = 200;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The list a cursor belongs to: whose plants, and which tag (undefined: all of them). */
export interface CursorQuery {
  owner: string;
  tag?: string | undefined;
}

/** The list a cursor is for, as its check binds it: a key of its own per list. */
const checkOf = (payload: string, list: string) =>
  createHash('sha256').update(`${payload}\n${list}`).digest('base64url').slice(0, 16);

/** `position` as a cursor of `list`: opaque, and refused by any other list. */
export const sealCursor = (position: unknown, list: string): string => {
  const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
  return `${payload}.${checkOf(payload, list)}`;
};

/** The position a cursor sealed for `list` holds, unchecked; undefined for anything else. */
export const openCursor = (cursor: string, list: string): unknown => {
  if (cursor.length > MAX_CURSOR_LENGTH) return undefined;
  const [payload = '', check, ...rest] = cursor.split('.');
  if (rest.length > 0 || check !== checkOf(payload, list)) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
};

// the list a cursor is for: the owner alone for the unfiltered list (as before tags, so its
// cursors outlive a deploy), the tag list's own key for a tag
const listOf = ({ owner, tag }: CursorQuery) =>
  tag === undefined ? owner : creatorTagOf(owner, tag);

export const encodeCursor = ({ createdAt, id }: ListPosition, query: CursorQuery): string =>
  sealCursor([createdAt, id], listOf(query));

/** The position a cursor made for `query` holds; undefined for anything else. */
export const decodeCursor = (cursor: string, query: CursorQuery): ListPosition | undefined => {
  const position = openCursor(cursor, listOf(query));
  if (!Array.isArray(position) || position.length !== 2) return undefined;
  const [createdAt, id] = position as unknown[];
  if (typeof createdAt !== 'string' || !ISO_INSTANT.test(createdAt)) return undefined;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) return undefined;
  return { createdAt, id };
};
