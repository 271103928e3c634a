// The request body, checked in API.md's order (media type, size, JSON) and parsed by
// @middy/http-json-body-parser, whose 415/422 plain-text errors are turned into ours. The result is
// context.json; the event is left as it came. A route with a body names it with `jsonRequestBody`,
// so only the functions of such routes bundle the parser.
import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { HttpError } from '@middy/util';
import { httpError } from '#lib/http/httpError.ts';
import { inexactIntegerFields } from '#lib/http/integerLiterals.ts';
import { METRICS } from '#lib/http/metrics.ts';
import type { HttpEvent, RouteContext } from '#lib/http/types.ts';
import type { RequestBody } from '#lib/http/validateInput.ts';

export interface JsonBodyOptions {
  /** What the body must be, for messages: "a NewPlant". */
  describedAs: string;
  /** Largest body accepted, in bytes after base64 decoding. */
  maxBytes?: number;
  /**
   * Top-level fields that must be written as whole numbers. One written with a fraction that
   * JSON.parse rounds away (1.0000000000000001) is reported with its text, so validation rejects it.
   */
  integerFields?: readonly string[];
}

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/**
 * The deepest nesting of objects and arrays accepted. The parser's prototype-pollution guard is a
 * JSON.parse reviver, which V8 runs recursively: a few thousand levels (well inside 64 KiB) would
 * overflow the stack. No client of this API needs more than a handful.
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

/** application/json and application/<x>+json, with or without parameters (RFC 9110 allows a space before ";"). */
const jsonMediaType = /^application\/([a-z0-9!#$&^_.+-]+\+)?json[ \t]*(;|$)/i;

// ignoreBOM keeps a byte order mark in the text, which JSON.parse then refuses: a base64 body gets
// the answer the same body gets as text (RFC 8259 forbids senders to add one)
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as text, rejecting what is too large or not UTF-8 (never silently replaced with U+FFFD). */
const invalid = (status: number, message: string, cause?: unknown) =>
  httpError(status, message, { metric: METRICS.validationFailures, cause });

/** The body as text, rejecting what is too large or not UTF-8 (never silently replaced with U+FFFD). */
const bodyText = (body: string, isBase64Encoded: boolean, maxBytes: number): string => {
  const bytes = isBase64Encoded ? Buffer.from(body, 'base64') : undefined;
  const size = bytes ? bytes.byteLength : Buffer.byteLength(body, 'utf8');
  if (size > maxBytes) throw invalid(413, `Request body is larger than ${maxBytes} bytes`);
  if (!bytes) return body;
  try {
    return strictUtf8.decode(bytes);
  } catch (cause) {
    throw invalid(400, 'Request body is not valid UTF-8', cause);
  }
};

/** The parser's own refusals (its 415/422 errors) become ours; anything else is a fault. */
const translateParserError = (error: unknown) => {
  if (!(error instanceof Error) || typeof (error as HttpError).statusCode !== 'number')
    return error;
  const cause = error.cause as { data?: unknown } | undefined;
  if (error.message === 'Forbidden key in JSON body') {
    return invalid(400, `Request body must not contain the key "${String(cause?.data)}"`, error);
  }
  return invalid(400, 'Request body is not valid JSON', error);
};

// typed for full API Gateway events, Middy's parser reads and writes only these fields
interface ParserRequest {
  event: { headers: Record<string, string | undefined>; body: unknown; isBase64Encoded: boolean };
}

export const jsonBody = ({
  describedAs,
  maxBytes = DEFAULT_MAX_BODY_BYTES,
  integerFields = [],
}: JsonBodyOptions): MiddlewareObj<HttpEvent, unknown, Error, RouteContext> => {
  // its own content-type check is off: ours runs first, before the size check, as API.md orders them
  const parser = httpJsonBodyParser({ disableContentTypeCheck: true });
  const parse = parser.before as unknown as (request: ParserRequest) => void;

  return {
    before: (request) => {
      const { headers, body, isBase64Encoded } = request.event;
      const contentType = headers?.['content-type'];
      if (!contentType || !jsonMediaType.test(contentType)) {
        throw invalid(415, 'Content-Type must be application/json');
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
      // the parser works on a request of its own: the event is never changed
      const parsing: ParserRequest = { event: { headers: {}, body: text, isBase64Encoded: false } };
      try {
        parse(parsing);
      } catch (error) {
        throw translateParserError(error);
      }
      request.context.json = {
        value: parsing.event.body,
        inexactIntegers: inexactIntegerFields(text, integerFields),
      };
    },
  };
};

/** A route's JSON body: the stage that parses it, and the schema its content must meet. */
export const jsonRequestBody = <Body>(
  schema: RequestBody<Body>['schema'],
  options: JsonBodyOptions,
): RequestBody<Body> => ({ schema, describedAs: options.describedAs, parser: jsonBody(options) });
