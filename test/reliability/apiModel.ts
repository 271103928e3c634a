// An independent model of docs/api.md's rules for POST /plants, the oracle of the property suite. From a
// request as the client sent it, it decides what API Gateway hands the function, the status the
// service must answer and, for a plant it accepts, what must be stored. It shares no code with lib/
// on purpose: where the two disagree, docs/api.md says which one is wrong. Only the plant's fields come
// from the published schema (each one's name, JSON type and whether it is required, as the OpenAPI
// document has them), so that a field added there is modeled here; how a value of each type is
// judged is the model's own.
import * as z from 'zod/mini';
import { Plant } from '#lib/plants/schemas.ts';

/** docs/api.md, "Limits": a body larger than 64 KiB (after base64 decoding) is 413. */
export const MAX_BODY_BYTES = 64 * 1024;
/** docs/api.md, "Limits": objects and arrays nest at most this deep (the parser's guard recurses). */
const MAX_NESTING = 100;

/** The deepest nesting of objects and arrays in a JSON text, outside strings. */
const nestingOf = (text: string): number => {
  let depth = 0;
  let deepest = 0;
  let quoted = false;
  let escaped = false;
  for (const char of text) {
    if (quoted) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === '{' || char === '[') deepest = Math.max(deepest, ++depth);
    else if (char === '}' || char === ']') depth--;
  }
  return deepest;
};
/** docs/api.md, "Plants": ids from -9007199254740991 to 9007199254740991. */
export const ID_LIMIT = 9_007_199_254_740_991n;

/** A request as the client sends it: header names in any casing, repeats allowed, in order. */
export interface ClientRequest {
  headers: readonly (readonly [name: string, value: string])[];
  /** The event's body: base64 text when `isBase64Encoded`; absent when the client sent none. */
  body: string | undefined;
  isBase64Encoded: boolean;
}

/** A plant as the model stores it: its id, and each content field the request gave. */
export interface ModelPlant {
  id: bigint;
  [field: string]: unknown;
}

/** The plant's content fields, as the published schema has them. */
const CONTENT = z.toJSONSchema(Plant, { io: 'input' }) as {
  properties: Record<string, { type?: string }>;
  required?: string[];
};

/** Why a value is not one of the field's JSON type (docs/api.md's rules), or undefined when it is. */
const refusalOf = (field: string, type: string | undefined, value: unknown) => {
  switch (type) {
    case 'string':
      if (typeof value !== 'string') return `${field} is not a string`;
      return isWellFormed(value) ? undefined : `${field} has a lone surrogate`;
    default:
      throw new Error(
        `apiModel cannot judge the field ${field} (type ${type}): teach refusalOf its rule`,
      );
  }
};

export type Verdict =
  | { status: 400 | 401 | 413 | 415; reason: string }
  /** Valid: what happens next depends on what the store already holds. */
  | { status: 'store'; caller: string; plant: ModelPlant };

// ---------------------------------------------------------------------------------------------
// API Gateway: how the headers reach the function.

/**
 * The header fields of the event, as API Gateway's HTTP API builds them: names lower-cased,
 * repeated fields joined with commas.
 */
export const deliveredHeaders = (request: ClientRequest): Record<string, string> => {
  const byName = new Map<string, string[]>();
  for (const [name, value] of request.headers) {
    const key = name.toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), value]);
  }
  return Object.fromEntries([...byName].map(([name, values]) => [name, values.join(',')]));
};

/** The value a handler sees for a header name, given lower-cased. */
const headerValue = (request: ClientRequest, name: string): string | undefined =>
  deliveredHeaders(request)[name];

// ---------------------------------------------------------------------------------------------
// The rules, in docs/api.md's order ("Errors"): authentication, media type, size, JSON, fields.

/** `Authorization: Bearer <token>`; the scheme is case-insensitive (RFC 7235), then 1*SP (RFC 6750). */
const callerOf = (value: string | undefined, tokens: ReadonlyMap<string, string>) => {
  if (value === undefined) return undefined;
  const space = value.indexOf(' ');
  if (space < 0 || value.slice(0, space).toLowerCase() !== 'bearer') return undefined;
  const credentials = value.slice(space).replace(/^ +/, '');
  return tokens.get(credentials);
};

/** application/json or application/<name>+json (RFC 6838 restricted names), any parameters. */
const isJsonMediaType = (value: string | undefined) => {
  if (value === undefined) return false;
  const essence = (value.split(';')[0] ?? '').replace(/[ \t]+$/, '').toLowerCase();
  return (
    essence === 'application/json' ||
    /^application\/[a-z0-9][a-z0-9!#$&^_.+-]*\+json$/.test(essence)
  );
};

/** The bytes of the body after base64 decoding; a JS string body as UTF-8. */
const bodyBytes = (body: string, isBase64Encoded: boolean) =>
  isBase64Encoded ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8');

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Every surrogate paired: the Unicode string I-JSON requires. */
const isWellFormed = (text: string) => {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return false;
    }
  }
  return true;
};

/** `__proto__`, or `constructor` holding a `prototype`, at any depth (walked without recursion). */
const hasPollutingKey = (root: unknown) => {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    for (const [key, child] of Object.entries(node)) {
      if (key === '__proto__') return true;
      if (
        key === 'constructor' &&
        child !== null &&
        typeof child === 'object' &&
        Object.hasOwn(child, 'prototype')
      ) {
        return true;
      }
      pending.push(child);
    }
  }
  return false;
};

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/**
 * The source text of each top-level member value of a valid JSON object text; for a repeated key,
 * the last one (JSON.parse keeps the last). A plain scan: nesting never costs stack.
 */
const topLevelSources = (text: string): Map<string, string> => {
  const sources = new Map<string, string>();
  let at = 0;
  const skipSpace = () => {
    while (WHITESPACE.has(text.charAt(at))) at++;
  };
  const skipString = () => {
    at++;
    while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at++;
  };
  const skipValue = () => {
    const first = text.charAt(at);
    if (first === '"') return skipString();
    if (first === '{' || first === '[') {
      let depth = 0;
      do {
        const char = text.charAt(at);
        if (char === '"') {
          skipString();
          continue;
        }
        if (char === '{' || char === '[') depth++;
        else if (char === '}' || char === ']') depth--;
        at++;
      } while (depth > 0);
      return;
    }
    // a number, true, false or null: up to the next delimiter
    while (at < text.length && !',}]'.includes(text.charAt(at)) && !WHITESPACE.has(text.charAt(at)))
      at++;
  };
  skipSpace();
  at++; // {
  for (;;) {
    skipSpace();
    if (text[at] !== '"') break;
    const keyStart = at;
    skipString();
    const key = JSON.parse(text.slice(keyStart, at)) as string;
    skipSpace();
    at++; // :
    skipSpace();
    const valueStart = at;
    skipValue();
    sources.set(key, text.slice(valueStart, at));
    skipSpace();
    if (text[at] === ',') at++;
  }
  return sources;
};

/**
 * The exact value of a JSON number literal when it denotes an integer (7, 7.0, 70e-1, -0), by
 * decimal arithmetic on its digits; undefined for 7.5 or 1.0000000000000001. Integers far beyond
 * the id range come back as a value just outside it.
 */
export const exactInteger = (literal: string): bigint | undefined => {
  const parts = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!parts) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = parts;
  let digits = (whole + fraction).replace(/^0+/, '');
  // value = digits × 10^scale
  let scale = BigInt(exponent) - BigInt(fraction.length);
  if (digits === '') return 0n;
  while (scale < 0n && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    scale += 1n;
  }
  if (scale < 0n) return undefined;
  const negative = sign === '-' ? -1n : 1n;
  if (BigInt(digits.length) + scale > 20n) return negative * (ID_LIMIT + 1n);
  return negative * BigInt(digits) * 10n ** scale;
};

/**
 * What docs/api.md says the service answers to `request`, short of the store; `tokens` maps each valid
 * token to its subject.
 */
export const verdictFor = (
  request: ClientRequest,
  tokens: ReadonlyMap<string, string>,
): Verdict => {
  const caller = callerOf(headerValue(request, 'authorization'), tokens);
  if (caller === undefined) return { status: 401, reason: 'not authenticated' };
  if (!isJsonMediaType(headerValue(request, 'content-type'))) {
    return { status: 415, reason: 'not a JSON media type' };
  }
  const { body, isBase64Encoded } = request;
  if (body === undefined || body === '') return { status: 400, reason: 'no body' };
  const bytes = bodyBytes(body, isBase64Encoded);
  if (bytes.byteLength > MAX_BODY_BYTES) return { status: 413, reason: 'body too large' };
  let text = body;
  if (isBase64Encoded) {
    try {
      text = utf8.decode(bytes);
    } catch {
      return { status: 400, reason: 'body is not UTF-8' };
    }
  }
  if (nestingOf(text) > MAX_NESTING) return { status: 400, reason: 'nested too deeply' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { status: 400, reason: 'not JSON' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { status: 400, reason: 'not a JSON object' };
  }
  if (hasPollutingKey(parsed)) return { status: 400, reason: 'prototype pollution key' };
  const fields = parsed as Record<string, unknown>;

  if (typeof fields.id !== 'number') return { status: 400, reason: 'id is not a number' };
  const id = exactInteger(topLevelSources(text).get('id') ?? '');
  if (id === undefined) return { status: 400, reason: 'id is not an integer' };
  if (id > ID_LIMIT || id < -ID_LIMIT) return { status: 400, reason: 'id out of range' };

  const plant: ModelPlant = { id };
  for (const [field, { type }] of Object.entries(CONTENT.properties)) {
    const given = Object.hasOwn(fields, field);
    if (!given && !CONTENT.required?.includes(field)) continue;
    const reason = refusalOf(field, type, fields[field]);
    if (reason) return { status: 400, reason };
    plant[field] = fields[field];
  }
  return { status: 'store', caller, plant };
};

// ---------------------------------------------------------------------------------------------
// The store: a plant is written once; an identical retry by its creator is a replay; anything
// else (other content, or another caller) a conflict.

export interface StoredModelPlant extends ModelPlant {
  createdBy: string;
}

export type Expected =
  | { status: 400 | 401 | 413 | 415 | 409; reason: string }
  /** `replay`: the plant was stored already, identical; nothing is written. */
  | { status: 200; plant: ModelPlant; replay: boolean };

/** Applies an accepted request to the model of the table and says what must be answered. */
export const applyToStore = (table: Map<bigint, StoredModelPlant>, verdict: Verdict): Expected => {
  if (verdict.status !== 'store') return verdict;
  const { plant, caller } = verdict;
  const existing = table.get(plant.id);
  if (!existing) {
    table.set(plant.id, { ...plant, createdBy: caller });
    return { status: 200, plant, replay: false };
  }
  if (existing.createdBy !== caller) return { status: 409, reason: "the id is another caller's" };
  return Object.keys(CONTENT.properties).every((field) => existing[field] === plant[field])
    ? { status: 200, plant, replay: true }
    : { status: 409, reason: 'the id holds a different plant' };
};
