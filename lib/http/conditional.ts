// Conditional requests (RFC 9110 §8.8.3, §13.1.1): strong entity tags and If-Match.

/** A strong entity tag for an opaque value: `"3"`. */
export const strongEtag = (value: string | number) => `"${value}"`;

/** If-Match as a request states it: any current representation, or one of these tags. */
export type IfMatch = { any: true } | { any: false; tags: string[] };

const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

/** If-Match: undefined when absent, else its strong tags (a weak one never matches If-Match). */
export const parseIfMatch = (header: string | undefined): IfMatch | undefined | 'malformed' => {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return { any: true };
  const tags: string[] = [];
  for (const member of value.split(',')) {
    const match = ENTITY_TAG.exec(member.trim());
    if (!match) return 'malformed';
    if (!match[1]) tags.push(match[2] ?? '');
  }
  return { any: false, tags };
};
