// The request body checked in docs/api.md's order (media type, size, JSON) into context.json by
// Middy's prototype-safe JSON.parse, its reviver reading integer fields' source (patches/); only
// routes with a body.
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { httpError } from '#lib/http/httpError.ts';
import type { Stage } from '#lib/http/types.ts';
import type { RequestBody } from '#lib/http/validateInput.ts';

export interface JsonBodyOptions {
  /** What the body must be, for messages: "a NewPlant". */
  describedAs: string;
  /** Top-level fields written as whole numbers; else (even 1.0000000000000001) their source text. */
  integerFields?: readonly string[];
  /** Media types accepted, lower-case, no parameters; by default any application/(<x>+)json. */
  mediaTypes?: readonly string[];
}

/** Largest body accepted, in bytes after base64 decoding (the same for every route). */
export const MAX_BODY_BYTES = 64 * 1024;

/** Deepest nesting accepted: V8 runs a reviver recursively, and 64 KiB can nest past the stack. */
export const MAX_NESTING = 100;

/** How deeply objects and arrays nest in a JSON text (brackets inside strings do not count). */
export const nestingDepth = (text: string): number => {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (inString) {
      if (char === 0x5c)
        at++; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (char === 0x7d || char === 0x5d) depth--;
  }
  return deepest;
};

/** What the client is told of a body refused before its fields are read (the OpenAPI examples too). */
export const BODY_REFUSALS = {
  mediaType: (mediaTypes: readonly string[] = ['application/json']) =>
    `Content-Type must be ${mediaTypes.join(' or ')}`,
  notJson: 'Request body is not valid JSON',
  tooLarge: `Request body is larger than ${MAX_BODY_BYTES} bytes`,
};

/** A Content-Type's media type, lower-case (RFC 9110 allows a space before ";": Middy does not). */
const mediaTypeOf = (contentType: string) =>
  (/^[^;]*?(?=[ \t]*(;|$))/.exec(contentType)?.[0] ?? '').toLowerCase();

/** What a route accepts unless it names its media types: application/json and application/<x>+json. */
const anyJson = /^application\/([a-z0-9!#$&^_.+-]+\+)?json$/;

// ignoreBOM keeps a byte order mark in the text, which JSON.parse then refuses: a base64 body gets
// the answer the same body gets as text (RFC 8259 forbids senders to add one)
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const invalid = (status: number, message: string, cause?: unknown) =>
  httpError(status, message, { metric: 'ValidationFailures', cause });

/** The body as text; too large or not UTF-8 is refused (Middy would decode it to U+FFFD). */
const bodyText = (body: string, isBase64Encoded?: boolean): string => {
  const bytes = isBase64Encoded ? Buffer.from(body, 'base64') : undefined;
  const size = bytes ? bytes.byteLength : Buffer.byteLength(body, 'utf8');
  if (size > MAX_BODY_BYTES) throw invalid(413, BODY_REFUSALS.tooLarge);
  if (!bytes) return body;
  try {
    return strictUtf8.decode(bytes);
  } catch (cause) {
    throw invalid(400, 'Request body is not valid UTF-8', cause);
  }
};

/** True when a JSON number literal denotes a whole number exactly: 7, 7.0, 1.5e1; not 1e-400. */
export const isIntegerLiteral = (literal: string): boolean => {
  const parts = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!parts) return false;
  const [, whole = '', fraction = '', exponent = '0'] = parts;
  const pointAt = whole.length + Number(exponent);
  return /^0*$/.test((whole + fraction).slice(Math.max(pointAt, 0)));
};

// without these no key is forbidden (none escaped) and every number whole: JSON.parse alone will do
const needsReviver = /\\|__proto__|constructor|\d[.eE]/;

/**
 * Middy's parser, built once per route: the body as JSON, with `integerFields` as JsonBodyOptions
 * says. Its reviver meets an object's members before the object: which object is the top-level one
 * is known only once the parse returns (a parse is synchronous: one list serves every request).
 */
const jsonParser = (integerFields: readonly string[]) => {
  const inexact: { holder: unknown; key: string; source: string }[] = [];
  function reviver(this: unknown, key: string, value: unknown, context?: { source?: string }) {
    const source = context?.source;
    if (typeof value === 'number' && source && integerFields.includes(key)) {
      if (!isIntegerLiteral(source)) inexact.push({ holder: this, key, source });
    }
    return value;
  }
  const { before } = httpJsonBodyParser({ disableContentTypeCheck: true, reviver });
  // all the parser reads and writes of a request: it writes the JSON over the body
  const parse = before as unknown as (request: { event: { body: unknown } }) => void;
  return (text: string): unknown => {
    inexact.length = 0;
    const request = { event: { body: text as unknown } };
    try {
      if (needsReviver.test(text)) parse(request);
      else request.event.body = JSON.parse(text);
    } catch (error) {
      // its 422s: a key that attempts prototype pollution, or text that is not JSON
      const { message, cause } = error as { message?: unknown; cause?: { data?: unknown } };
      throw message === 'Forbidden key in JSON body'
        ? invalid(400, `Request body must not contain the key "${String(cause?.data)}"`, error)
        : invalid(400, BODY_REFUSALS.notJson, error);
    }
    const json = request.event.body;
    for (const { holder, key, source } of inexact) {
      if (holder === json) (json as Record<string, unknown>)[key] = source;
    }
    return json;
  };
};

export const jsonBody = (options: JsonBodyOptions): Stage => {
  const { describedAs, integerFields = [], mediaTypes } = options;
  const accepts = (mediaType: string) =>
    mediaTypes ? mediaTypes.includes(mediaType) : anyJson.test(mediaType);
  const mediaTypeRefusal = BODY_REFUSALS.mediaType(mediaTypes);
  const parseJson = jsonParser(integerFields);
  const deep = `Request body nests objects and arrays more than ${MAX_NESTING} levels deep`;
  return {
    before: ({ event: { headers, body, isBase64Encoded }, context }) => {
      if (!accepts(mediaTypeOf(headers?.['content-type'] ?? '')))
        throw invalid(415, mediaTypeRefusal);
      if (!body) throw invalid(400, `Request body is required: a JSON object (${describedAs})`);
      const text = bodyText(body, isBase64Encoded);
      if (nestingDepth(text) > MAX_NESTING) throw invalid(400, deep);
      context.json = parseJson(text);
    },
  };
};

/** A route's JSON body: the stage that parses it, and the schema its content must meet. */
export const jsonRequestBody = <Body>(
  schema: RequestBody<Body>['schema'],
  options: JsonBodyOptions,
): RequestBody<Body> => ({ schema, ...options, parser: jsonBody(options) });
