// JSON.parse turns 1.0000000000000001 and 9007199254740990.6 into whole numbers, so a parsed
// value cannot tell whether the client wrote an integer. The source text can: it is read only when
// the body holds a fraction or exponent at all.

/** True when a JSON number literal denotes a whole number exactly: 7, 7.0, 1.5e1; not 1e-400. */
export const isIntegerLiteral = (literal: string): boolean => {
  const parts = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!parts) return false;
  const [, whole = '', fraction = '', exponent = '0'] = parts;
  const pointAt = whole.length + Number(exponent);
  return /^0*$/.test((whole + fraction).slice(Math.max(pointAt, 0)));
};

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The source text of each top-level member value of a valid JSON object text, by key; for a
 * repeated key the last one, as JSON.parse keeps it. One pass over the text: unlike a JSON.parse
 * reviver (which V8 runs recursively, overflowing the stack a few thousand levels deep), nesting
 * costs nothing here.
 */
const topLevelMemberSources = (text: string): Map<string, string> => {
  const sources = new Map<string, string>();
  if (text.trimStart()[0] !== '{') return sources;
  let depth = 0;
  let key: string | undefined;
  let valueStart = -1;
  const endMember = (at: number) => {
    if (key !== undefined && valueStart >= 0) sources.set(key, text.slice(valueStart, at).trim());
    key = undefined;
    valueStart = -1;
  };
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === '"') {
      const start = at;
      for (at++; text.charCodeAt(at) !== QUOTE; at++) {
        if (text.charCodeAt(at) === BACKSLASH) at++;
      }
      // a string at the top level before its colon is a member's key
      if (depth === 1 && valueStart < 0) {
        const literal = text.slice(start, at + 1);
        key = literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1);
      }
    } else if (char === '{' || char === '[') {
      depth++;
    } else if (char === '}' || char === ']') {
      if (depth === 1) endMember(at);
      depth--;
    } else if (depth === 1 && char === ':') {
      valueStart = at + 1;
    } else if (depth === 1 && char === ',') {
      endMember(at);
    }
  }
  return sources;
};

/**
 * The top-level `fields` of a valid JSON object text whose number literal is not a whole number,
 * with that literal: the parsed value of each would be a rounded stand-in.
 */
export const inexactIntegerFields = (
  text: string,
  fields: readonly string[],
): Map<string, string> => {
  const found = new Map<string, string>();
  if (!/\d[.eE]/.test(text)) return found;
  const sources = topLevelMemberSources(text);
  for (const field of fields) {
    const literal = sources.get(field);
    const isNumber = literal !== undefined && /^-?\d/.test(literal);
    if (isNumber && !isIntegerLiteral(literal)) found.set(field, literal);
  }
  return found;
};
