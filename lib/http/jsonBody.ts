// The request body, checked in API.md's order (media type, size, JSON) and parsed by one
// JSON.parse, whose reviver refuses prototype-pollution keys and reads integer fields' source text.
// The result is context.json; the event is left as it came. A route with a body names it with
// `jsonRequestBody`, so only the functions of such routes bundle the parser.
import type { MiddlewareObj } from '@middy/core';
import { httpError } from '#lib/http/httpError.ts';
import type { HttpEvent, RouteContext } from '#lib/http/types.ts';
import type { RequestBody } from '#lib/http/validateInput.ts';

export interface JsonBodyOptions {
  /** What the body must be, for messages: "a NewPlant". */
  describedAs: string;
  /** Largest body accepted, in bytes after base64 decoding. */
  maxBytes?: number;
  /**
   * Top-level fields that must be written as whole numbers. One written otherwise, even where
   * JSON.parse rounds it to one (1.0000000000000001), stands as its source text, which the schema
   * refuses.
   */
  integerFields?: readonly string[];
}

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/**
 * The deepest nesting of objects and arrays accepted. V8 runs a JSON.parse reviver recursively: a
 * few thousand levels (well inside 64 KiB) would overflow the stack. No client of this API needs
 * more than a handful.
 */
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
  mediaType: 'Content-Type must be application/json',
  notJson: 'Request body is not valid JSON',
  tooLarge: (maxBytes: number) => `Request body is larger than ${maxBytes} bytes`,
};

/** application/json and application/<x>+json, with or without parameters (RFC 9110 allows a space before ";"). */
const jsonMediaType = /^application\/([a-z0-9!#$&^_.+-]+\+)?json[ \t]*(;|$)/i;

// ignoreBOM keeps a byte order mark in the text, which JSON.parse then refuses: a base64 body gets
// the answer the same body gets as text (RFC 8259 forbids senders to add one)
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A refusal of the body, counted as a validation failure. */
const invalid = (status: number, message: string, cause?: unknown) =>
  httpError(status, message, { metric: 'ValidationFailures', cause });

/** The body as text, rejecting what is too large or not UTF-8 (never silently replaced with U+FFFD). */
const bodyText = (body: string, isBase64Encoded: boolean, maxBytes: number): string => {
  const bytes = isBase64Encoded ? Buffer.from(body, 'base64') : undefined;
  const size = bytes ? bytes.byteLength : Buffer.byteLength(body, 'utf8');
  if (size > maxBytes) throw invalid(413, BODY_REFUSALS.tooLarge(maxBytes));
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

/** What Node 24's JSON.parse tells a reviver besides the key and value: a primitive's text. */
interface ReviverContext {
  source?: string;
}

/**
 * The body as JSON, refusing the keys that attempt prototype pollution (those Middy's parser
 * refuses), with `integerFields` as JsonBodyOptions says.
 */
const parseJson = (text: string, integerFields: readonly string[]): unknown => {
  // the reviver meets an object's members before the object itself: which object is the top-level
  // one is known only once JSON.parse returns
  const inexact: { holder: unknown; key: string; source: string }[] = [];
  const json: unknown = JSON.parse(
    text,
    function (this: unknown, key: string, value: unknown, { source }: ReviverContext = {}) {
      if (
        key === '__proto__' ||
        (key === 'constructor' &&
          typeof value === 'object' &&
          value !== null &&
          Object.hasOwn(value, 'prototype'))
      ) {
        throw invalid(400, `Request body must not contain the key "${key}"`);
      }
      if (
        typeof value === 'number' &&
        source !== undefined &&
        integerFields.includes(key) &&
        !isIntegerLiteral(source)
      ) {
        inexact.push({ holder: this, key, source });
      }
      return value;
    },
  );
  for (const { holder, key, source } of inexact) {
    if (holder === json) (json as Record<string, unknown>)[key] = source;
  }
  return json;
};

export const jsonBody = ({
  describedAs,
  maxBytes = DEFAULT_MAX_BODY_BYTES,
  integerFields = [],
}: JsonBodyOptions): MiddlewareObj<HttpEvent, unknown, Error, RouteContext> => ({
  before: (request) => {
    const { headers, body, isBase64Encoded } = request.event;
    const contentType = headers?.['content-type'];
    if (!contentType || !jsonMediaType.test(contentType)) {
      throw invalid(415, BODY_REFUSALS.mediaType);
    }
    if (typeof body !== 'string' || body === '') {
      throw invalid(400, `Request body is required: a JSON object (${describedAs})`);
    }
    const text = bodyText(body, isBase64Encoded === true, maxBytes);
    if (nestingDepth(text) > MAX_NESTING) {
      throw invalid(
        400,
        `Request body nests objects and arrays more than ${MAX_NESTING} levels deep`,
      );
    }
    try {
      request.context.json = parseJson(text, integerFields);
    } catch (error) {
      throw error instanceof SyntaxError ? invalid(400, BODY_REFUSALS.notJson, error) : error;
    }
  },
});

/** A route's JSON body: the stage that parses it, and the schema its content must meet. */
export const jsonRequestBody = <Body>(
  schema: RequestBody<Body>['schema'],
  options: JsonBodyOptions,
): RequestBody<Body> => ({ schema, describedAs: options.describedAs, parser: jsonBody(options) });
