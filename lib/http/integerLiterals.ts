// JSON.parse turns 1.0000000000000001 and 9007199254740990.6 into whole numbers, so a parsed
// value cannot tell whether the client wrote an integer. The source text can (ES2025 JSON.parse
// source access, Node 22+); it is read only when the body holds a fraction or exponent at all.

/** True when a JSON number literal denotes a whole number exactly: 7, 7.0, 1.5e1; not 1e-400. */
export const isIntegerLiteral = (literal: string): boolean => {
  const parts = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!parts) return false;
  const [, whole = '', fraction = '', exponent = '0'] = parts;
  const pointAt = whole.length + Number(exponent);
  return /^0*$/.test((whole + fraction).slice(Math.max(pointAt, 0)));
};

type SourceReviver = (
  this: unknown,
  key: string,
  value: unknown,
  context?: { source?: string },
) => unknown;

/**
 * The top-level `fields` of a JSON object text whose number literal is not a whole number,
 * with that literal: the parsed value of each would be a rounded stand-in.
 */
export const inexactIntegerFields = (
  text: string,
  fields: readonly string[],
): Map<string, string> => {
  const found = new Map<string, string>();
  if (!/\d[.eE]/.test(text)) return found;
  const literalsByHolder = new Map<unknown, Map<string, string>>();
  let root: unknown;
  const recordLiterals: SourceReviver = function (key, value, context) {
    if (key === '') root = value;
    else if (typeof value === 'number' && fields.includes(key) && context?.source) {
      const literals = literalsByHolder.get(this) ?? new Map<string, string>();
      literals.set(key, context.source);
      literalsByHolder.set(this, literals);
    }
    return value;
  };
  JSON.parse(text, recordLiterals as Parameters<typeof JSON.parse>[1]);
  for (const [field, literal] of literalsByHolder.get(root) ?? []) {
    if (!isIntegerLiteral(literal)) found.set(field, literal);
  }
  return found;
};
