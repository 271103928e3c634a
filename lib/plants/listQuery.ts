// The query of GET /plants and its cursor: the position of the last plant of a page, bound to the
// caller and the tag or none (lib/http/paging.ts).
import * as z from 'zod/mini';
import { openCursor, pageCursor, pageLimit, sealCursor, strictQuery } from '#lib/http/paging.ts';
import { creatorTagOf } from '#lib/plants/creatorTag.ts';
import type { ListPosition } from '#lib/plants/store.ts';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The list a cursor belongs to: whose plants, and which tag (undefined: all of them). */
type CursorQuery = Pick<ListQuery, 'tag'> & { owner: string };

const tagRule = 'tag must be the tag of the plants to list: not empty, given once';
const tagText = z.string({ error: tagRule }).check(z.minLength(1, tagRule));
/* @__PURE__ */ z.globalRegistry.add(tagText, {
  description:
    "Only the caller's plants whose `tag` is exactly this (no prefix, no case folding), oldest first and paged the same way. Empty or given twice answers 400 naming `tag`.",
  examples: ['indoor'],
});

export const ListQuery = strictQuery('the list', {
  limit: pageLimit('plants'),
  tag: z.optional(tagText),
  cursor: pageCursor("another caller's or from another list (another `tag`, or none)"),
});
export type ListQuery = z.infer<typeof ListQuery>;

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
