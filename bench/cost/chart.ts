// The bench's cost chart: what a million requests of each route cost, split by AWS service, drawn
// as a standalone SVG string with no dependency or browser, so the report can show it on GitHub.

export type ChartPart = { key: string; label: string; color: string };
/** One bar: dollars per million for each part key; a missing key costs nothing. */
export type ChartRow = { name: string; usd: Record<string, number> };

const font = 'system-ui, -apple-system, Segoe UI, sans-serif';
const charW = 7; // average advance of a 12px character: sizes columns without measuring text
const pad = 16;
const barArea = 520;
const rowH = 24;
const barH = 16;
const top = 60; // below the title and its subtitle

// coordinates at one decimal keep the output short and the same bytes on every run
const r = (n: number) => Math.round(n * 10) / 10;
const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => entities[c] ?? c);
const money = (n: number) => (n > 0 && n < 0.01 ? '<$0.01' : `$${n.toFixed(2)}`);
// capitals run wider than the 7px average: without this a legend label overlaps the next swatch
const textW = (s: string) => s.length * charW + (s.match(/[A-Z]/g)?.length ?? 0) * 2;
const text = (x: number, y: number, s: string, attrs = '') =>
  `<text x="${r(x)}" y="${r(y)}"${attrs}>${esc(s)}</text>`;

/** Gridline values: the largest 1, 2, 2.5 or 5 × 10^k within a third of max, so 4 to 6 lines. */
const ticks = (max: number) => {
  if (max <= 0) return { values: [0], decimals: 2 };
  let k = Math.floor(Math.log10(max / 3));
  if (10 ** (k + 1) <= max / 3) k++; // log10 of an exact power of ten may fall just short
  const m = [5, 2.5, 2, 1].find((m) => m * 10 ** k <= max / 3) ?? 1;
  const values: number[] = [];
  for (let i = 0; i * m * 10 ** k <= max * (1 + 1e-9); i++) values.push(i * m * 10 ** k);
  return { values, decimals: Math.max(2, -k + (m === 2.5 ? 1 : 0)) };
};

/** A horizontal stacked bar per row (its name left, its total in dollars right), one colour per part, a legend; dollars per million. */
export const costChart = (
  title: string,
  parts: readonly ChartPart[],
  rows: readonly ChartRow[],
  subtitle = 'US dollars per million requests',
): string => {
  const totals = rows.map((row) => parts.reduce((sum, p) => sum + (row.usd[p.key] ?? 0), 0));
  const max = Math.max(0, ...totals);
  const scale = max > 0 ? barArea / max : 0;
  const barX = pad + Math.max(0, ...rows.map((row) => textW(row.name))) + 8;
  const totalW = Math.max(5, ...totals.map((t) => money(t).length)) * 8; // bold digits: 8px
  const width = r(Math.max(barX + barArea + 8 + totalW + pad, title.length * 8 + 2 * pad));
  const bottom = top + rows.length * rowH;
  const out: string[] = [
    text(pad, pad + 14, title, ' font-size="16" font-weight="600" fill="#111827"'),
    text(pad, pad + 32, subtitle, ' font-size="12" fill="#6b7280"'),
  ];
  const axis = ticks(max);
  for (const v of axis.values) {
    const x = r(barX + v * scale);
    out.push(`<line x1="${x}" y1="${top - 4}" x2="${x}" y2="${bottom}" stroke="#e5e7eb"/>`);
    const label = `$${v.toFixed(axis.decimals)}`;
    out.push(text(x, bottom + 14, label, ' font-size="11" fill="#6b7280" text-anchor="middle"'));
  }
  rows.forEach((row, i) => {
    const y = top + i * rowH;
    out.push(text(barX - 8, y + 12, row.name, ' text-anchor="end" fill="#111827"'));
    let sum = 0;
    for (const p of parts) {
      const usd = row.usd[p.key] ?? 0;
      // both edges from running sums: adjacent segments meet without rounding gaps
      const x = r(barX + sum * scale);
      sum += usd;
      const w = r(r(barX + sum * scale) - x);
      if (w <= 0) continue;
      const tip = `${row.name} · ${p.label}: ${money(usd)}`;
      out.push(
        `<rect x="${x}" y="${y}" width="${w}" height="${barH}" fill="${esc(p.color)}"><title>${esc(tip)}</title></rect>`,
      );
    }
    const label = money(totals[i] ?? 0);
    out.push(text(barX + sum * scale + 6, y + 12, label, ' fill="#111827" font-weight="600"'));
  });
  // the legend wraps to a new line when the next item would overflow the chart's width
  let [lx, ly] = [pad, bottom + 40];
  for (const p of parts) {
    const w = 18 + textW(p.label);
    if (lx > pad && lx + w > width - pad) [lx, ly] = [pad, ly + 20];
    out.push(`<rect x="${r(lx)}" y="${ly - 10}" width="12" height="12" fill="${esc(p.color)}"/>`);
    out.push(text(lx + 18, ly, p.label, ' fill="#374151"'));
    lx += w + 16;
  }
  const height = ly + pad;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${font}" font-size="12" role="img">`,
    // what a screen reader says of the chart
    `<title>${esc(title)}</title>`,
    // white behind everything: the chart stays legible on GitHub's dark theme
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    ...out,
    '</svg>',
  ].join('\n');
};
