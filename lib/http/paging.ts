// A list's pages: one spelling per limit and cursor, any other parameter refused, the cursor sealed to
// its list (an edited one a 400, not DynamoDB's 500); no secret: a forger pages only their own list.
import { hash } from 'node:crypto';
import * as z from 'zod/mini';

/** The Link header of the next page (RFC 8288): this request's address with `query` alone. */
export const nextPageLink = (url: URL, query: Record<string, string | undefined>) => {
  const next = new URL(url);
  next.search = '';
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) next.searchParams.set(name, value);
  return { Link: `<${next.href}>; rel="next"` };
};

/** Far above any cursor this service makes. */
export const MAX_CURSOR_LENGTH = 200;

/** The list a cursor is for, as its check binds it: a key of its own per list. */
const checkOf = (payload: string, list: string) =>
  hash('sha256', `${payload}\n${list}`, 'base64url').slice(0, 16);

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

export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;
const limitRule = `limit must be an integer from 1 to ${LIST_LIMIT_MAX}, given once`;

/** The `limit` of a page of `things`: 1 to LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT when left out. */
export const pageLimit = (things: string) => {
  const text = z
    .string({ error: limitRule })
    .check(
      z.refine(
        (digits) => /^[1-9][0-9]{0,2}$/.test(digits) && Number(digits) <= LIST_LIMIT_MAX,
        limitRule,
      ),
    );
  // for the OpenAPI document only: a bundle drops it (a pure call whose result nobody reads)
  /* @__PURE__ */ z.globalRegistry.add(text, {
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: LIST_LIMIT_MAX,
    default: LIST_LIMIT_DEFAULT,
    description: `The maximum number of ${things} in the page, in plain decimal digits, given once. 0, a negative number, more than ${LIST_LIMIT_MAX}, a fraction or text answer 400 naming \`limit\`.`,
    examples: [LIST_LIMIT_DEFAULT],
  });
  return z._default(z.pipe(text, z.transform(Number)), LIST_LIMIT_DEFAULT);
};

/** The `cursor` of a page; `refusedWhen` says which cursors answer 400 naming it. */
export const pageCursor = (refusedWhen: string) => {
  const text = z.string({
    error: 'cursor must be given once, as the Link header of the previous page has it',
  });
  /* @__PURE__ */ z.globalRegistry.add(text, {
    maxLength: MAX_CURSOR_LENGTH,
    description: `Where the page starts: opaque, copied from the previous page's \`Link\` header, never made by hand. One that is altered, cut short, ${refusedWhen} answers 400 naming \`cursor\`.`,
  });
  return z.optional(text);
};

/** A list's query of these parameters: any other is refused, naming those it takes. */
export const strictQuery = <Shape extends z.core.$ZodLooseShape>(
  list: string,
  parameters: Shape,
) => {
  const names = Object.keys(parameters);
  const known = `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return z.strictObject(parameters, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `The query parameter ${JSON.stringify(issue.keys[0])} is not known: ${list} takes ${known}`
        : undefined,
  });
};
