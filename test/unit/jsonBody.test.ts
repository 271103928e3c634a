// The JSON body middleware on its own: bodies at the edges the property suite found.
import { describe, expect, it } from 'vitest';
import { jsonBody } from '#lib/http/jsonBody.ts';
import type { HttpEvent, ParsedJson, RouteContext } from '#lib/http/types.ts';

const parseJson = (body: string, isBase64Encoded = false): ParsedJson => {
  const event: HttpEvent = {
    headers: { 'content-type': 'application/json' },
    body,
    isBase64Encoded,
  };
  const context = {} as RouteContext;
  const before = jsonBody({ describedAs: 'a NewPlant', integerFields: ['id'] }).before as (
    request: unknown,
  ) => void;
  before({ event, context });
  // the event stays as it came
  expect(event.body).toBe(body);
  if (!context.json) throw new Error('jsonBody wrote no result');
  return context.json;
};

const parse = (body: string, isBase64Encoded = false): unknown =>
  parseJson(body, isBase64Encoded).value;

const refusal = (body: string, isBase64Encoded = false) => {
  try {
    parse(body, isBase64Encoded);
  } catch (error) {
    return { status: (error as { statusCode?: number }).statusCode, message: String(error) };
  }
  throw new Error('the body was accepted');
};

const nested = (depth: number, bottom = '1') => `${'['.repeat(depth)}${bottom}${']'.repeat(depth)}`;

describe('jsonBody', () => {
  // the parser's pollution guard is a recursive JSON.parse reviver: the depth is bounded before it
  it('parses a body whose ignored property nests objects and arrays 100 levels deep', () => {
    // the top-level object is one level: 99 more inside it
    const body = parse(`{"id":1,"name":"Fern","deep":${nested(99)}}`);

    expect(body).toMatchObject({ id: 1, name: 'Fern' });
  });

  it.each([101, 3000, 30_000])(
    'refuses nesting %i levels deep with a 400 that says the limit',
    (depth) => {
      expect(refusal(`{"id":1,"name":"Fern","deep":${nested(depth - 1)}}`)).toEqual({
        status: 400,
        message: expect.stringContaining('more than 100 levels'),
      });
    },
  );

  it('does not count brackets inside strings, escaped quotes included', () => {
    const name = `${'['.repeat(500)}\\"${'{'.repeat(500)}`;
    expect(parse(`{"id":1,"name":"${name}"}`)).toMatchObject({ id: 1 });
  });

  it('reports an inexact id with its literal, wherever it stands in the body', () => {
    const { inexactIntegers } = parseJson(`{"deep":${nested(50)},"id":1.5,"name":"Fern"}`);
    expect(Object.fromEntries(inexactIntegers)).toEqual({ id: '1.5' });
  });

  it('refuses a __proto__ key at the bottom of a deep nesting', () => {
    expect(refusal(`{"id":1,"name":"Fern","deep":${nested(90, '{"__proto__":1}')}}`)).toEqual({
      status: 400,
      message: expect.stringContaining('"__proto__"'),
    });
  });

  it.each([
    ['__proto__', '{"__proto__":{"admin":true}}'],
    ['__proto__', '{"a":[{"\\u005f_proto__":1}]}'],
    ['constructor', '{"a":{"constructor":{"prototype":null}}}'],
  ])('refuses the key %s in %s', (key, body) => {
    expect(refusal(body)).toEqual({ status: 400, message: expect.stringContaining(`"${key}"`) });
  });

  it('accepts a constructor without a prototype, and a prototype without a constructor', () => {
    expect(parse('{"constructor":{"name":"x"},"prototype":{},"id":1}')).toMatchObject({ id: 1 });
  });

  it('refuses a byte order mark as JSON does, whether the body comes as text or base64', () => {
    const text = '\ufeff{"id":1,"name":"Fern"}';

    expect(refusal(text)).toEqual({
      status: 400,
      message: expect.stringMatching(/not valid JSON/),
    });
    expect(refusal(Buffer.from(text).toString('base64'), true)).toEqual({
      status: 400,
      message: expect.stringMatching(/not valid JSON/),
    });
  });
});
