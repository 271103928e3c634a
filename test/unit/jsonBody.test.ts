// The JSON body middleware on its own: bodies at the edges the property suite found.
import { jsonParseProtectProto } from '@middy/util';
import { describe, expect, it } from 'vitest';
import {
  BODY_REFUSALS,
  isIntegerLiteral,
  type JsonBodyOptions,
  jsonBody,
} from '#lib/http/jsonBody.ts';
import type { HttpEvent, RouteContext } from '#lib/http/types.ts';

const parse = (body: string, isBase64Encoded = false, integerFields = ['id']): unknown => {
  const event: HttpEvent = {
    headers: { 'content-type': 'application/json' },
    body,
    isBase64Encoded,
  };
  const context = {} as RouteContext;
  const before = jsonBody({ describedAs: 'a NewPlant', integerFields }).before as (
    request: unknown,
  ) => void;
  before({ event, context });
  // the event stays as it came
  expect(event.body).toBe(body);
  if (!('json' in context)) throw new Error('jsonBody wrote no result');
  return context.json;
};

const refusal = (body: string, isBase64Encoded = false) => {
  try {
    parse(body, isBase64Encoded);
  } catch (error) {
    return { status: (error as { statusCode?: number }).statusCode, message: String(error) };
  }
  throw new Error('the body was accepted');
};

/** The status and message a body gets with this Content-Type, or 'accepted'. */
const answerTo = (contentType: string, options: Partial<JsonBodyOptions> = {}) => {
  const before = jsonBody({ describedAs: 'a Plant', ...options }).before as (
    request: unknown,
  ) => void;
  try {
    before({ event: { headers: { 'content-type': contentType }, body: '{}' }, context: {} });
  } catch (error) {
    return { status: (error as { statusCode?: number }).statusCode, message: String(error) };
  }
  return 'accepted';
};

const nested = (depth: number, bottom = '1') => `${'['.repeat(depth)}${bottom}${']'.repeat(depth)}`;

describe("Middy's JSON parser (patches/@middy+util+7.9.2.patch)", () => {
  it('hands our reviver the holder and the source text, as JSON.parse does', () => {
    const seen: { holder: unknown; source: unknown }[] = [];
    jsonParseProtectProto('{"id":1.0000000000000001}', function (
      this: unknown,
      key: string,
      value: unknown,
      context?: { source?: string },
    ) {
      if (key === 'id') seen.push({ holder: this, source: context?.source });
      return value;
    } as (key: string, value: unknown) => unknown);

    expect(
      seen,
      'the patch of @middy/util is not applied: run npm ci (its postinstall runs patch-package), or redo the patch for the installed version',
    ).toEqual([{ holder: { id: 1 }, source: '1.0000000000000001' }]);
  });
});

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

  it('refuses a __proto__ key at the bottom of a deep nesting', () => {
    expect(refusal(`{"id":1,"name":"Fern","deep":${nested(90, '{"__proto__":1}')}}`)).toEqual({
      status: 400,
      message: expect.stringContaining('"__proto__"'),
    });
  });

  it('says exactly which key it refuses, and that a body is not JSON', () => {
    expect(refusal('{"a":{"__proto__":1}}')).toEqual({
      status: 400,
      message: 'BadRequestError: Request body must not contain the key "__proto__"',
    });
    expect(refusal('{"a":1,}')).toEqual({
      status: 400,
      message: `BadRequestError: ${BODY_REFUSALS.notJson}`,
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

  describe('media types', () => {
    it.each([
      'application/json',
      'application/json ; charset=utf-8',
      'Application/JSON\t;charset=utf-8',
      'application/merge-patch+json',
      'application/json-patch+json',
      'application/vnd.api+json',
    ])('take %s by default', (contentType) => {
      expect(answerTo(contentType)).toBe('accepted');
    });

    it.each([
      'application/jsonp',
      'application/json x',
      ' application/json',
      'application/json\u00a0',
      'text/json',
      'application/+json',
    ])('refuse %s by default, saying what to send', (contentType) => {
      expect(answerTo(contentType)).toEqual({
        status: 415,
        message: `UnsupportedMediaTypeError: ${BODY_REFUSALS.mediaType()}`,
      });
    });

    // the PATCH route's: a JSON merge patch, not a JSON Patch
    const mediaTypes = ['application/merge-patch+json', 'application/json'];

    it.each([
      'application/merge-patch+json',
      'APPLICATION/MERGE-PATCH+JSON; charset=utf-8',
      'application/json',
    ])('take %s when a route names its own, among them', (contentType) => {
      expect(answerTo(contentType, { mediaTypes })).toBe('accepted');
    });

    it.each(['application/json-patch+json', 'application/vnd.api+json', 'text/plain'])(
      'refuse %s when a route names its own, naming them',
      (contentType) => {
        expect(answerTo(contentType, { mediaTypes })).toEqual({
          status: 415,
          message:
            'UnsupportedMediaTypeError: Content-Type must be application/merge-patch+json or application/json',
        });
      },
    );
  });

  describe('integer fields', () => {
    it('leave an inexact id as its literal, wherever it stands in the body', () => {
      expect(parse(`{"deep":${nested(50)},"id":1.5,"name":"Fern"}`)).toMatchObject({ id: '1.5' });
      expect(parse('{"id":-7.5}')).toEqual({ id: '-7.5' });
    });

    it('leave a number JSON.parse rounds to a whole one as its literal', () => {
      expect(parse('{"id":1.0000000000000001}')).toEqual({ id: '1.0000000000000001' });
      expect(parse('{"id":9007199254740990.6}')).toEqual({ id: '9007199254740990.6' });
      expect(parse('{"id":1e-400}')).toEqual({ id: '1e-400' });
    });

    it('parse a whole number however it is written, beyond the safe range too', () => {
      expect(parse('{"id":7,"name":"v1.5"}')).toEqual({ id: 7, name: 'v1.5' });
      expect(parse('{"id":7.0}')).toEqual({ id: 7 });
      expect(parse('{"id":1e3}')).toEqual({ id: 1000 });
      // a whole number the schema refuses for its range, not for its form
      expect(parse('{"id":9007199254740993}')).toEqual({ id: 9007199254740992 });
    });

    it('are only the named top-level members: other and nested ones stay numbers', () => {
      const body = '{"id":1.0000000000000001,"other":2.5,"nested":{"id":3.5},"count":4.0}';

      expect(parse(body, false, ['id', 'count'])).toEqual({
        id: '1.0000000000000001',
        other: 2.5,
        nested: { id: 3.5 },
        count: 4,
      });
      expect(parse('{"":{"id":1.5},"list":[{"id":0.5}]}')).toEqual({
        '': { id: 1.5 },
        list: [{ id: 0.5 }],
      });
      expect(parse('[{"id":1.5}]')).toEqual([{ id: 1.5 }]);
    });

    it('read the last of repeated keys, as JSON.parse keeps it, and escaped key names', () => {
      expect(parse('{"id":1.5,"id":2}')).toEqual({ id: 2 });
      expect(parse('{"id":2,"id":2.5}')).toEqual({ id: '2.5' });
      expect(parse('{"\\u0069d" : 2.5 }')).toEqual({ id: '2.5' });
    });

    it('are numbers only: a string is left as it is, for the schema to refuse', () => {
      expect(parse('{"id":"7.5","name":"\\"id\\": 3.5"}')).toEqual({
        id: '7.5',
        name: '"id": 3.5',
      });
    });
  });
});

describe('isIntegerLiteral', () => {
  it.each([
    '0',
    '-0',
    '7',
    '7.0',
    '7.000',
    '1.5e1',
    '1E3',
    '-2e+2',
    '0.0',
    '0e5',
    '1e400',
    '120e-1',
  ])('takes %s as a whole number', (literal) => expect(isIntegerLiteral(literal)).toBe(true));

  it.each(['7.5', '1.0000000000000001', '9007199254740990.6', '1e-400', '125e-1', '0.1', 'x', ''])(
    'does not take %s as a whole number',
    (literal) => expect(isIntegerLiteral(literal)).toBe(false),
  );
});
