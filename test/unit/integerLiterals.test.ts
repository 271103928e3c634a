import { describe, expect, it } from 'vitest';
import { inexactIntegerFields, isIntegerLiteral } from '#lib/http/integerLiterals.ts';

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

describe('inexactIntegerFields', () => {
  it('finds only the named top-level fields whose literal is not a whole number', () => {
    const text = '{"id":1.0000000000000001,"other":2.5,"nested":{"id":3.5},"count":4.0}';

    expect(inexactIntegerFields(text, ['id', 'count'])).toEqual(
      new Map([['id', '1.0000000000000001']]),
    );
  });

  it('finds nothing in a body without fractions or exponents, or with whole ones', () => {
    expect(inexactIntegerFields('{"id":12,"name":"Ficus"}', ['id']).size).toBe(0);
    expect(inexactIntegerFields('{"id":12.0,"name":"v1.5"}', ['id']).size).toBe(0);
  });

  it('reads the last of repeated keys, as JSON.parse keeps it, and escaped key names', () => {
    expect(inexactIntegerFields('{"id":1.5,"id":2}', ['id']).size).toBe(0);
    expect(inexactIntegerFields('{"id":2,"id":2.5}', ['id'])).toEqual(new Map([['id', '2.5']]));
    expect(inexactIntegerFields('{"\\u0069d" : 2.5 }', ['id'])).toEqual(new Map([['id', '2.5']]));
  });

  it('is not misled by strings holding quotes, braces or commas', () => {
    const text = '{"name":"a \\"}\\", \\"id\\": 3.5, {","tag":"[","id":7.0}';

    expect(inexactIntegerFields(text, ['id']).size).toBe(0);
  });

  it('reads only number literals, and costs no stack however deep the body is', () => {
    const deep = `${'['.repeat(50_000)}1.5${']'.repeat(50_000)}`;

    expect(inexactIntegerFields(`{"x":${deep},"id":"7.5"}`, ['id']).size).toBe(0);
    expect(inexactIntegerFields(`{"x":${deep},"id":-7.5}`, ['id'])).toEqual(
      new Map([['id', '-7.5']]),
    );
  });
});
