// fast-check generators of POST /plants requests, from valid to hostile: bodies valid, almost valid,
// of wrong types, deeply nested, huge, not UTF-8 or with lone surrogates, with ids at and beyond the
// id range, duplicate keys and prototype-pollution keys, or not JSON at all; headers in every
// casing, missing or repeated; base64 or not. What each must get is decided
// by the model (apiModel.ts), not here.
import fc from 'fast-check';
import { type ClientRequest, ID_LIMIT, MAX_BODY_BYTES } from './apiModel.ts';

/** Tokens the generator puts in Authorization headers. */
export interface TestTokens {
  /** Accepted: two callers, so that the stored creator is checked too. */
  alice: string;
  bob: string;
  /** Rejected: signed by a key the service does not trust. */
  stranger: string;
  /** Rejected: expired. */
  expired: string;
}

export type GeneratedRequest = ClientRequest & fc.WithToStringMethod;

// ---------------------------------------------------------------------------------------------
// JSON text pieces

const hex4 = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;

/** A JSON string literal for `value`: as JSON.stringify writes it, every code unit escaped, or raw. */
type StringStyle = 'stringify' | 'escaped' | 'raw';
const jsonString = (value: string, style: StringStyle) => {
  if (style === 'stringify') return JSON.stringify(value);
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    const char = value.charAt(i);
    if (style === 'escaped' || unit < 0x20) out += hex4(unit);
    else if (char === '"' || char === '\\') out += `\\${char}`;
    // raw: even a lone surrogate goes in as it is, a JS string can hold one
    else out += char;
  }
  return `${out}"`;
};

const stringStyle = fc.constantFrom<StringStyle>('stringify', 'stringify', 'escaped', 'raw');
const encodedString = (value: fc.Arbitrary<string>) =>
  fc.tuple(value, stringStyle).map(([text, style]) => jsonString(text, style));

/** `arbitrary` once in `oneIn` values, else null. */
const rarely = <T>(arbitrary: fc.Arbitrary<T>, oneIn: number) =>
  fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

/** A member of a JSON object: the key's literal and the value's source text. */
type Member = readonly [key: string, value: string];
const member = (key: string, value: string): Member => [JSON.stringify(key), value];

// ---------------------------------------------------------------------------------------------
// Field values

/** A few ids many requests share, so that retries and conflicts happen; and the range's ends. */
const sharedIds = [1n, 2n, 3n, -1n, 0n, ID_LIMIT, -ID_LIMIT];

/** The ways to write a whole number in JSON: 7, 7.0, 7.000, 70e-1, 7E0, and -0 for 0. */
const integerSpellings = (value: bigint): string[] => {
  const plain = value.toString();
  return [plain, plain, `${plain}.0`, `${plain}.000`, `${plain}0e-1`, `${plain}E0`].concat(
    value === 0n ? ['-0', '0e5', '-0.0'] : [],
  );
};

const validId = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...sharedIds) },
  { weight: 1, arbitrary: fc.bigInt(-ID_LIMIT, ID_LIMIT) },
);

const idLiteral = fc.oneof(
  {
    weight: 14,
    arbitrary: validId.chain((id) => fc.constantFrom(...integerSpellings(id))),
  },
  // at and beyond the exact range, and fractions a parser would round to a whole number
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '9007199254740991',
      '-9007199254740991',
      '9007199254740991.0',
      '9007199254740992',
      '-9007199254740992',
      '9007199254740993',
      '18446744073709551616',
      '123456789012345678901234567890',
      '1e16',
      '9.007199254740993e15',
      '1e400',
      '-1e400',
      '1.0000000000000001',
      '9007199254740990.6',
      '0.5',
      '-7.25',
      '1e-400',
      '125e-1',
      '1.5e1',
    ),
  },
  // not numbers at all
  {
    weight: 1,
    arbitrary: fc.constantFrom('"7"', '"1"', 'null', 'true', '[1]', '{"value":1}', '""', '"1e3"'),
  },
);

const sharedNames = ['Fern', 'Ivy', '', 'Monstera 🌿', 'Aloe "vera" \\ 1'];
const loneSurrogates = ['\ud800', '\udfff', '\udc00\ud800', 'Fern \ud83c', '\ude00 Ivy'];

const nameValue = fc.oneof(
  { weight: 8, arbitrary: encodedString(fc.constantFrom(...sharedNames)) },
  { weight: 3, arbitrary: encodedString(fc.string({ unit: 'binary', maxLength: 24 })) },
  { weight: 1, arbitrary: encodedString(fc.string({ unit: 'grapheme-composite', maxLength: 8 })) },
  { weight: 1, arbitrary: encodedString(fc.constantFrom(...loneSurrogates)) },
  { weight: 1, arbitrary: fc.constantFrom('7', 'null', 'true', '[]', '{}', '["Fern"]') },
);

const tagValue = fc.oneof(
  { weight: 8, arbitrary: encodedString(fc.constantFrom('indoor', 'outdoor', '')) },
  { weight: 1, arbitrary: encodedString(fc.string({ unit: 'binary', maxLength: 12 })) },
  { weight: 1, arbitrary: encodedString(fc.constantFrom(...loneSurrogates)) },
  { weight: 1, arbitrary: fc.constantFrom('null', '0', 'false', '["indoor"]', '{}') },
);

/** Properties the schema does not know: ignored, never stored, never echoed. */
const unknownMember = fc.oneof(
  fc.constantFrom(
    member('createdBy', '"mallory"'),
    member('createdAt', '"1999-01-01T00:00:00.000Z"'),
    member('admin', 'true'),
    member('ID', '"99"'),
    member('Name', '5'),
    member('constructor', '{"name":"Object"}'),
    member('prototype', '{"admin":true}'),
    member('toString', '1'),
    member('hasOwnProperty', 'null'),
    member('nested', '{"id":1.5,"name":7,"tag":null,"list":[1,2,{"deep":null}]}'),
  ),
  fc
    .tuple(fc.string({ maxLength: 8 }), fc.json({ maxDepth: 3 }))
    .map(([key, value]) => member(key, value)),
);

/** Keys that attempt prototype pollution, at the top or nested, plain or escaped. */
const pollutingMember = fc.constantFrom(
  member('__proto__', '{"admin":true}'),
  member('__proto__', 'null'),
  ['"\\u005f_proto__"', '1'] as const,
  ['"__pro\\u0074o__"', '{}'] as const,
  member('constructor', '{"prototype":{"admin":true}}'),
  member('constructor', '{"prototype":null}'),
  member('a', '{"b":{"__proto__":{"admin":true}}}'),
  member('a', '[1,{"constructor":{"prototype":1}}]'),
);

/** Nesting deeper than any sane client sends, inside an ignored property or as the value itself. */
const nesting = fc
  .record({
    depth: fc.constantFrom(2, 100, 1000, 2500, 5000, 10_000, 20_000, 32_000),
    shape: fc.constantFrom('array', 'object'),
    bottom: fc.constantFrom('1', '{"__proto__":1}'),
  })
  .map(({ depth, shape, bottom }) => {
    // objects take 6 bytes a level: keep every shape under the body limit
    const levels = shape === 'object' ? Math.min(depth, 10_000) : depth;
    return shape === 'array'
      ? `${'['.repeat(levels)}${bottom}${']'.repeat(levels)}`
      : `${'{"a":'.repeat(levels)}${bottom}${'}'.repeat(levels)}`;
  });

// ---------------------------------------------------------------------------------------------
// Bodies

type Whitespace = '' | ' ' | '\n  ';
const objectText = (members: readonly Member[], space: Whitespace) =>
  `{${space}${members.map(([key, value]) => `${key}:${space}${value}`).join(`,${space}`)}${space}}`;

/** A NewPlant, almost one, or one with traps: fields in any order, some missing, some repeated. */
const objectBody = fc
  .record({
    id: fc.option(idLiteral, { freq: 12 }),
    name: fc.option(nameValue, { freq: 12 }),
    tag: fc.option(tagValue, { freq: 2 }),
    unknown: fc.array(unknownMember, { maxLength: 3 }),
    polluting: rarely(pollutingMember, 14),
    deep: rarely(nesting, 10),
    duplicate: rarely(
      fc.record({
        key: fc.constantFrom('id', 'name', 'tag'),
        value: fc.oneof(idLiteral, nameValue, tagValue),
        first: fc.boolean(),
      }),
      8,
    ),
    space: fc.constantFrom<Whitespace>('', '', ' ', '\n  '),
    seed: fc.nat(),
  })
  .map(({ id, name, tag, unknown, polluting, deep, duplicate, space, seed }) => {
    const members: Member[] = [...unknown];
    if (id != null) members.push(member('id', id));
    if (name != null) members.push(member('name', name));
    if (tag != null) members.push(member('tag', tag));
    if (polluting != null) members.push(polluting);
    if (deep != null) members.push(member('deep', deep));
    // a deterministic shuffle from the generated seed: key order must not matter
    let state = seed;
    for (let i = members.length - 1; i > 0; i--) {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      const j = state % (i + 1);
      [members[i], members[j]] = [members[j] as Member, members[i] as Member];
    }
    if (duplicate != null) {
      const repeated = member(duplicate.key, duplicate.value);
      if (duplicate.first) members.unshift(repeated);
      else members.push(repeated);
    }
    return objectText(members, space);
  });

/** A valid plant whose body is exactly `bytes` long (UTF-8), its name padded with `pad`. */
const sizedBody = (bytes: number, pad: string, id: bigint) => {
  const frame = `{"id":${id},"name":""}`;
  const room = bytes - frame.length;
  const padBytes = Buffer.byteLength(pad, 'utf8');
  const name = pad.repeat(Math.floor(room / padBytes)) + 'x'.repeat(room % padBytes);
  return `{"id":${id},"name":"${name}"}`;
};

/** Bodies at the 64 KiB limit (one byte under, at, over) and far beyond it. */
const hugeBody = fc.oneof(
  fc
    .record({
      bytes: fc.constantFrom(
        MAX_BODY_BYTES - 1,
        MAX_BODY_BYTES,
        MAX_BODY_BYTES + 1,
        70_000,
        1_100_000,
      ),
      pad: fc.constantFrom('x', 'é', '🌿', 'ࠀ'),
      id: fc.constantFrom(...sharedIds),
    })
    .map(({ bytes, pad, id }) => sizedBody(bytes, pad, id)),
  // too large and not JSON either: the size is checked first
  fc.constantFrom(MAX_BODY_BYTES + 1, 100_000).map((bytes) => '{'.repeat(bytes)),
);

/** Not JSON: truncated, JavaScript rather than JSON, a BOM, garbage. */
const notJsonBody = fc.oneof(
  fc.constantFrom(
    '{"id":1,"name":"Fern"',
    "{'id':1,'name':'Fern'}",
    '{"id":1,"name":"Fern",}',
    '{id:1,name:"Fern"}',
    '{"id":NaN,"name":"Fern"}',
    '{"id":Infinity,"name":"Fern"}',
    '{"id":01,"name":"Fern"}',
    '{"id":+1,"name":"Fern"}',
    '{"id":.5,"name":"Fern"}',
    '{"id":1.,"name":"Fern"}',
    '{"id":0x10,"name":"Fern"}',
    '{"id":1,"name":"Fern"} {}',
    '{"id":1,"name":"Fern"}/* comment */',
    '\ufeff{"id":1,"name":"Fern"}',
    '{"id":1,"name":"Fe\u0001rn"}',
    '{"id":1,"name":"\\x41"}',
    '{"id":1,"name":"\\ud800"',
    ' ',
    'undefined',
    '<plant id="1"/>',
    'id=1&name=Fern',
  ),
  fc.string({ maxLength: 40 }),
  objectBody.chain((text) =>
    fc.nat({ max: Math.max(0, text.length - 1) }).map((cut) => text.slice(0, cut)),
  ),
);

/** Valid JSON that is not an object. */
const notObjectBody = fc.constantFrom(
  'null',
  '[]',
  '[{"id":1,"name":"Fern"}]',
  '"Fern"',
  '7',
  'true',
  '  {"id":1,"name":"Fern"}  ',
);

/** Byte sequences that are not UTF-8 (only a base64 body can carry them). */
const badUtf8 = [
  [0xff],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xe2, 0x82],
  [0x80],
];
const notUtf8Body = fc
  .record({
    bytes: fc.constantFrom(...badUtf8),
    where: fc.constantFrom('name', 'tag', 'key', 'end'),
  })
  .map(({ bytes, where }) => {
    const bad = Buffer.from(bytes).toString('latin1');
    const text =
      where === 'name'
        ? `{"id":1,"name":"Fe${bad}rn"}`
        : where === 'tag'
          ? `{"id":2,"name":"Ivy","tag":"${bad}"}`
          : where === 'key'
            ? `{"id":3,"name":"Fern","${bad}":1}`
            : `{"id":1,"name":"Fern"}${bad}`;
    return Buffer.from(text, 'latin1');
  });

type Body = { kind: 'text'; text: string } | { kind: 'bytes'; bytes: Buffer } | { kind: 'absent' };

const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 30, arbitrary: objectBody.map((text) => ({ kind: 'text' as const, text })) },
  { weight: 2, arbitrary: hugeBody.map((text) => ({ kind: 'text' as const, text })) },
  { weight: 2, arbitrary: notJsonBody.map((text) => ({ kind: 'text' as const, text })) },
  { weight: 1, arbitrary: notObjectBody.map((text) => ({ kind: 'text' as const, text })) },
  { weight: 2, arbitrary: notUtf8Body.map((bytes) => ({ kind: 'bytes' as const, bytes })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Body>({ kind: 'absent' }, { kind: 'text', text: '' }),
  },
);

/** How the body travels: as text, base64 (as API Gateway sends binary bodies), or mislabelled. */
type Encoding = 'text' | 'base64' | 'base64-but-text' | 'text-but-base64';
const encoding = fc.oneof(
  { weight: 14, arbitrary: fc.constant<Encoding>('text') },
  { weight: 5, arbitrary: fc.constant<Encoding>('base64') },
  { weight: 1, arbitrary: fc.constantFrom<Encoding>('base64-but-text', 'text-but-base64') },
);

const encode = (value: Body, how: Encoding) => {
  if (value.kind === 'absent') return { body: undefined, isBase64Encoded: false };
  if (value.kind === 'bytes')
    return { body: value.bytes.toString('base64'), isBase64Encoded: true };
  const base64 = Buffer.from(value.text, 'utf8').toString('base64');
  switch (how) {
    case 'text':
      return { body: value.text, isBase64Encoded: false };
    case 'base64':
      return { body: base64, isBase64Encoded: true };
    case 'base64-but-text':
      return { body: value.text, isBase64Encoded: true };
    case 'text-but-base64':
      return { body: base64, isBase64Encoded: false };
  }
};

// ---------------------------------------------------------------------------------------------
// Headers

type Header = readonly [string, string];

const authorizationValues = (tokens: TestTokens): fc.Arbitrary<readonly string[]> =>
  fc.oneof(
    { weight: 14, arbitrary: fc.constant<readonly string[]>([`Bearer ${tokens.alice}`]) },
    { weight: 5, arbitrary: fc.constant<readonly string[]>([`Bearer ${tokens.bob}`]) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.mixedCase(fc.constant('bearer')), fc.constantFrom(' ', '  '))
        .map(([scheme, gap]): readonly string[] => [`${scheme}${gap}${tokens.alice}`]),
    },
    {
      weight: 4,
      arbitrary: fc.constantFrom<readonly string[]>(
        [],
        [''],
        ['Bearer'],
        [`Bearer${tokens.alice}`],
        [`Token ${tokens.alice}`],
        ['Basic YWxpY2U6c2VjcmV0'],
        ['Bearer not-a-jwt'],
        ['Bearer a.b.c'],
        [`Bearer ${tokens.stranger}`],
        [`Bearer ${tokens.expired}`],
        [`Bearer ${tokens.alice}x`],
        // repeated: API Gateway joins them with a comma
        [`Bearer ${tokens.alice}`, `Bearer ${tokens.alice}`],
        ['Bearer not-a-jwt', `Bearer ${tokens.bob}`],
        [`Bearer ${tokens.bob}`, 'Basic YWxpY2U6c2VjcmV0'],
      ),
    },
  );

const contentTypeValues: fc.Arbitrary<readonly string[]> = fc.oneof(
  { weight: 14, arbitrary: fc.constant<readonly string[]>(['application/json']) },
  {
    weight: 4,
    arbitrary: fc.constantFrom<readonly string[]>(
      ['application/json; charset=utf-8'],
      ['application/json;charset=UTF-8'],
      ['APPLICATION/JSON'],
      ['application/json ; charset=utf-8'],
      ['application/merge-patch+json'],
      ['application/vnd.plants.v1+json; charset=utf-8'],
      ['application/json; charset=latin1'],
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<readonly string[]>(
      [],
      [''],
      ['text/plain'],
      ['text/json'],
      ['application/xml'],
      ['application/jsonx'],
      ['application/json5'],
      ['application/x-www-form-urlencoded'],
      ['multipart/form-data; boundary=x'],
      ['json'],
      ['application/'],
      ['application/+json'],
      ['application/json-patch'],
      ['text/plain', 'application/json'],
      ['application/json', 'application/json'],
      ['application/json', 'text/plain'],
    ),
  },
);

const noiseHeaders = fc.array(
  fc.tuple(
    fc.constantFrom('accept', 'user-agent', 'x-request-id', 'content-length', 'authorisation'),
    fc.string({ unit: 'grapheme-ascii', maxLength: 12 }),
  ),
  { maxLength: 2 },
);

const headersArb = (tokens: TestTokens): fc.Arbitrary<Header[]> =>
  fc
    .record({
      authorization: authorizationValues(tokens),
      authorizationName: fc.mixedCase(fc.constant('authorization')),
      contentType: contentTypeValues,
      contentTypeName: fc.mixedCase(fc.constant('content-type')),
      noise: noiseHeaders,
      authorizationFirst: fc.boolean(),
    })
    .map(
      ({
        authorization,
        authorizationName,
        contentType,
        contentTypeName,
        noise,
        authorizationFirst,
      }) => {
        const auth = authorization.map((value): Header => [authorizationName, value]);
        const type = contentType.map((value): Header => [contentTypeName, value]);
        return [...(authorizationFirst ? [...auth, ...type] : [...type, ...auth]), ...noise];
      },
    );

// ---------------------------------------------------------------------------------------------

const preview = (text: string | undefined) => {
  if (text === undefined) return '(none)';
  const shown = text.length > 240 ? `${text.slice(0, 240)}…` : text;
  return `${JSON.stringify(shown)} (${text.length} chars)`;
};

/** The tokens by name, so that a counterexample stays readable. */
const withTokenNames = (text: string, tokens: TestTokens) =>
  Object.entries(tokens).reduce((out, [name, token]) => out.replaceAll(token, `<${name}>`), text);

/** The request, printed compactly in a counterexample (`again`: a client's retry of an earlier one). */
const described = (
  request: ClientRequest,
  tokens: TestTokens,
  again = false,
): GeneratedRequest => ({
  ...request,
  [fc.toStringMethod]: () =>
    withTokenNames(
      `{ ${again ? 'again, ' : ''}isBase64Encoded: ${request.isBase64Encoded}, headers: ${JSON.stringify(
        request.headers,
      )}, body: ${preview(request.body)} }`,
      tokens,
    ),
});

/** One request, any of the above; printed compactly in a counterexample. */
const requestArb = (tokens: TestTokens): fc.Arbitrary<GeneratedRequest> =>
  fc
    .record({
      headers: headersArb(tokens),
      body,
      encoding,
    })
    .map(({ headers, body: value, encoding: how }) =>
      described({ headers, ...encode(value, how) }, tokens),
    );

/**
 * A client's sequence of requests: new ones, and now and then one sent again (a client's retry, as
 * text or base64), so that replays meet their originals.
 */
export const requestSequenceArb = (
  tokens: TestTokens,
  maxLength: number,
): fc.Arbitrary<GeneratedRequest[]> =>
  fc
    .array(
      fc.oneof(
        { weight: 4, arbitrary: requestArb(tokens).map((request) => ({ request })) },
        {
          weight: 1,
          arbitrary: fc.record({
            back: fc.nat({ max: 7 }),
            base64: fc.boolean(),
          }),
        },
      ),
      { minLength: 1, maxLength, size: 'max' },
    )
    .map((steps) => {
      const sequence: GeneratedRequest[] = [];
      for (const step of steps) {
        if ('request' in step) {
          sequence.push(step.request);
          continue;
        }
        const earlier = sequence[sequence.length - 1 - (step.back % Math.max(1, sequence.length))];
        if (!earlier) continue;
        sequence.push(againAs(earlier, step.base64, tokens));
      }
      return sequence;
    })
    .filter((sequence) => sequence.length > 0);

/** The same request again; with `base64`, its text body travels base64-encoded this time. */
const againAs = (
  request: GeneratedRequest,
  base64: boolean,
  tokens: TestTokens,
): GeneratedRequest => {
  const reencode = base64 && !request.isBase64Encoded && request.body !== undefined;
  return described(
    {
      headers: request.headers,
      body: reencode ? Buffer.from(request.body ?? '', 'utf8').toString('base64') : request.body,
      isBase64Encoded: request.isBase64Encoded || reencode,
    },
    tokens,
    true,
  );
};
