// The bench's cost chart (bench/cost/chart.ts): well-formed SVG, segments to one scale, escaped text.
import { describe, expect, it } from 'vitest';
import { type ChartPart, type ChartRow, costChart } from '../../bench/cost/chart.ts';

// Okabe–Ito: distinguishable with the common colour-vision deficiencies
const parts: ChartPart[] = [
  { key: 'apiGateway', label: 'API Gateway', color: '#E69F00' },
  { key: 'lambdaRequests', label: 'Lambda requests', color: '#56B4E9' },
  { key: 'lambdaDuration', label: 'Lambda duration', color: '#0072B2' },
  { key: 'dynamodb', label: 'DynamoDB', color: '#009E73' },
  { key: 'sqs', label: 'SQS', color: '#CC79A7' },
  { key: 'logs', label: 'CloudWatch Logs', color: '#F0E442' },
  { key: 'dataTransfer', label: 'Data transfer out', color: '#D55E00' },
];
const rows: ChartRow[] = [
  {
    name: 'createPlant',
    usd: {
      apiGateway: 1.0,
      lambdaRequests: 0.2,
      lambdaDuration: 0.12,
      dynamodb: 1.25,
      logs: 0.35,
      dataTransfer: 0.04,
    },
  },
  {
    name: 'listPlants',
    usd: {
      apiGateway: 1.0,
      lambdaRequests: 0.2,
      lambdaDuration: 0.09,
      dynamodb: 0.25,
      logs: 0.3,
      dataTransfer: 0.4,
    },
  },
  {
    name: 'plant.added to 10 endpoints',
    usd: {
      sqs: 8,
      lambdaDuration: 3.1,
      lambdaRequests: 4.2,
      dynamodb: 12.5,
      logs: 6.0,
      dataTransfer: 0.9,
    },
  },
];
const total = (row: ChartRow) => parts.reduce((sum, p) => sum + (row.usd[p.key] ?? 0), 0);

/** The bar segments: the rects that carry a tooltip. */
const segments = (svg: string) =>
  [
    ...svg.matchAll(
      /<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="16" fill="([^"]+)"><title>([^<]*)<\/title><\/rect>/g,
    ),
  ].map(([, x, y, w, fill, tip]) => ({
    x: Number(x),
    y: Number(y),
    w: Number(w),
    fill,
    tip: tip ?? '',
  }));
const swatches = (svg: string) =>
  [
    ...svg.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="12" height="12" fill="([^"]+)"\/>/g),
  ].map(([, x, y, fill]) => ({ x: Number(x), y: Number(y), fill }));
const texts = (svg: string) =>
  [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map(([, t]) => t ?? '');

/** Throws unless every opened tag closes in order: the well-formedness a browser's parser needs. */
const assertBalanced = (svg: string) => {
  const open: string[] = [];
  for (const [tag, close, name, self] of svg.matchAll(/<(\/?)([a-zA-Z]+)\b[^<>]*?(\/?)>/g)) {
    if (close) expect(open.pop(), tag).toBe(name);
    else if (!self) open.push(name ?? '');
  }
  expect(open).toEqual([]);
  // nothing left over: no stray angle bracket or unescaped ampersand outside tags
  const outside = svg.replace(/<[^<>]*>/g, '');
  expect(outside).not.toMatch(/[<>]|&(?!(amp|lt|gt|quot);)/);
};

describe('costChart', () => {
  const svg = costChart('Cost per million requests', parts, rows);
  const segs = segments(svg);

  it('is a standalone, well-formed SVG with a white background and no script', () => {
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="([\d.]+)" height="([\d.]+)" viewBox="0 0 \1 \2"/,
    );
    expect(svg.endsWith('</svg>')).toBe(true);
    assertBalanced(svg);
    expect(svg).toContain('font-family="system-ui, -apple-system, Segoe UI, sans-serif"');
    // its title first, for a screen reader; then the white background, behind everything
    expect(svg).toMatch(
      /^<svg[^>]*role="img">\n<title>[^<]+<\/title>\n<rect width="[\d.]+" height="[\d.]+" fill="#ffffff"\/>/,
    );
    expect(svg).not.toMatch(/<script|<style|href=|@import/);
    expect(texts(svg)[0]).toBe('Cost per million requests');
  });

  it('draws each segment in parts order, its width proportional to its dollars on one scale', () => {
    const max = Math.max(...rows.map(total));
    const drawn = rows.flatMap((row) =>
      parts.filter((p) => (row.usd[p.key] ?? 0) > 0).map((p) => ({ row, p })),
    );
    expect(segs).toHaveLength(drawn.length);
    drawn.forEach(({ row, p }, i) => {
      const seg = segs[i];
      expect(seg?.fill).toBe(p.color);
      expect(seg?.tip).toBe(`${row.name} · ${p.label}: $${(row.usd[p.key] ?? 0).toFixed(2)}`);
      expect(Math.abs((seg?.w ?? 0) - ((row.usd[p.key] ?? 0) * 520) / max)).toBeLessThanOrEqual(
        0.2,
      );
    });
    // segments of a row abut left to right
    for (let i = 1; i < segs.length; i++) {
      const [a, b] = [segs[i - 1], segs[i]];
      if (a && b && a.y === b.y) expect(Math.abs(a.x + a.w - b.x)).toBeLessThanOrEqual(0.1);
    }
  });

  it('fills the whole bar width with the largest total, and starts every bar at one x', () => {
    const biggest = segs.filter((s) => s.tip.startsWith('plant.added to 10 endpoints'));
    const start = biggest[0]?.x ?? 0;
    const last = biggest.at(-1);
    expect(Math.abs((last?.x ?? 0) + (last?.w ?? 0) - start - 520)).toBeLessThanOrEqual(0.2);
    expect(segs.filter((s) => s.tip.startsWith('createPlant'))[0]?.x).toBe(start);
    expect(segs.filter((s) => s.tip.startsWith('listPlants'))[0]?.x).toBe(start);
  });

  it('writes each total to two decimals, and <$0.01 below a cent', () => {
    expect(texts(svg)).toEqual(expect.arrayContaining(['$2.96', '$2.24', '$34.70']));
    const small = costChart('t', parts, [{ name: 'a', usd: { sqs: 0.004 } }]);
    expect(texts(small)).toContain('&lt;$0.01');
    expect(segments(small)[0]?.tip).toBe('a · SQS: &lt;$0.01');
  });

  it('draws no segment for a row that costs nothing', () => {
    const out = costChart('t', parts, [
      { name: 'free', usd: { apiGateway: 0 } },
      { name: 'paid', usd: { apiGateway: 1 } },
    ]);
    expect(segments(out).map((s) => s.tip)).toEqual(['paid · API Gateway: $1.00']);
    expect(texts(out)).toEqual(expect.arrayContaining(['free', '$0.00']));
    const none = costChart('t', parts, [{ name: 'free', usd: {} }]);
    assertBalanced(none);
    expect(segments(none)).toEqual([]);
    expect(none).not.toContain('NaN');
  });

  it('escapes XML special characters in every text', () => {
    const out = costChart(
      'R&D <"costs">',
      [{ key: 'k', label: 'A & B', color: '#000' }],
      [{ name: 'x < y & "z"', usd: { k: 1 } }],
    );
    assertBalanced(out);
    expect(texts(out)).toEqual(
      expect.arrayContaining([
        'R&amp;D &lt;&quot;costs&quot;&gt;',
        'x &lt; y &amp; &quot;z&quot;',
        'A &amp; B',
      ]),
    );
    expect(segments(out)[0]?.tip).toBe('x &lt; y &amp; &quot;z&quot; · A &amp; B: $1.00');
  });

  it('has one legend swatch per part, in order, wrapping within the chart width', () => {
    expect(swatches(svg).map((s) => s.fill)).toEqual(parts.map((p) => p.color));
    const width = Number(svg.match(/width="([\d.]+)"/)?.[1]);
    const many = Array.from({ length: 20 }, (_, i) => ({
      key: `k${i}`,
      label: `Service number ${i}`,
      color: '#000',
    }));
    const out = costChart('t', many, [{ name: 'a', usd: { k0: 1 } }]);
    const sw = swatches(out);
    expect(sw).toHaveLength(20);
    expect(new Set(sw.map((s) => s.y)).size).toBeGreaterThan(1);
    const outWidth = Number(out.match(/width="([\d.]+)"/)?.[1]);
    for (const s of sw)
      expect(s.x + 18 + 'Service number 19'.length * 7 + 2).toBeLessThanOrEqual(outWidth);
    expect(width).toBeGreaterThan(520);
  });

  it('draws 4 to 6 gridlines at round dollar steps', () => {
    const axis = (out: string) =>
      texts(out).filter(
        (t) => /^\$\d+\.\d+$/.test(t) && out.includes(`text-anchor="middle">${t}<`),
      );
    expect(axis(svg)).toEqual(['$0.00', '$10.00', '$20.00', '$30.00']);
    const small = costChart('t', parts, [{ name: 'a', usd: { sqs: 1.6 } }]);
    expect(axis(small)).toEqual(['$0.00', '$0.50', '$1.00', '$1.50']);
    const quarter = costChart('t', parts, [{ name: 'a', usd: { sqs: 0.8 } }]);
    expect(axis(quarter)).toEqual(['$0.00', '$0.25', '$0.50', '$0.75']);
    for (const max of [0.07, 0.3, 1, 3, 7.5, 12, 99, 1000, 4321]) {
      const lines = costChart('t', parts, [{ name: 'a', usd: { sqs: max } }]).match(/<line /g);
      expect(lines?.length, `max ${max}`).toBeGreaterThanOrEqual(4);
      expect(lines?.length, `max ${max}`).toBeLessThanOrEqual(6);
    }
  });

  it('gives the same bytes for the same input, coordinates to one decimal', () => {
    expect(costChart('Cost per million requests', parts, rows)).toBe(svg);
    for (const [, n] of svg.matchAll(/ (?:x|y|x1|y1|x2|y2|width|height)="([^"]+)"/g)) {
      expect(n).toMatch(/^\d+(\.\d)?$/);
    }
  });
});
