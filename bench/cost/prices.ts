// Every price the cost model uses (us-east-1, arm64, on-demand, no free tier), and every figure it
// assumes rather than measures, each with its source and the day it was read: data, in
// bench/cost/prices.json (a request's price as AWS states it, `usdPerMillion`).
//
// Read on 2026-11-26 (the monthly bill's, 2026-11-27) from stored copies (no live web). The official
// aws.amazon.com pricing pages render their rate tables client-side, so their stored text often
// lacks the numbers; where that is so, `source` is still the official page and `note` names the
// page the number was checked on.
import data from './prices.json' with { type: 'json' };

export type Sourced = { source: string; read: string; note?: string };
/** `usd` for ONE `per` unit; `free`: the units an account gets free a month; `from`: a tier's first unit. */
export type Price = Sourced & { usd: number; per: string; free?: number; from?: number };
export type Assumption = Sourced & { value: number; unit: string; what: string };

const prices: Record<string, Omit<Price, 'usd'> & { usd?: number; usdPerMillion?: number }> =
  data.prices;
export const PRICES = Object.fromEntries(
  Object.entries(prices).map(([name, { usdPerMillion, usd, ...price }]) => [
    name,
    { usd: usdPerMillion === undefined ? (usd ?? 0) : usdPerMillion / 1e6, ...price },
  ]),
) as Record<keyof typeof data.prices, Price>;

// Lambda's own lines per invocation in the Text log format (managed Node.js runtime), with a
// realistic 36-char request id. The REPORT line is tab-separated and ends with a tab; cold starts
// add "Init Duration: N ms\t" to it.
const REQUEST_ID = '6bd29d4f-07f1-4e5c-8e5e-d8a2e3bcd9c0';
const PLATFORM_LINES_TEXT = [
  `START RequestId: ${REQUEST_ID} Version: $LATEST`,
  `END RequestId: ${REQUEST_ID}`,
  `REPORT RequestId: ${REQUEST_ID}\tDuration: 12.34 ms\tBilled Duration: 13 ms\t` +
    'Memory Size: 256 MB\tMax Memory Used: 88 MB\t',
];
// bytes of log lines, each with its newline, as CloudWatch counts uncompressed bytes
const platformLogBytes = Buffer.byteLength(`${PLATFORM_LINES_TEXT.join('\n')}\n`);

const assumptions: Record<string, Omit<Assumption, 'value'> & { value?: number }> =
  data.assumptions;
export const ASSUMPTIONS = Object.fromEntries(
  Object.entries(assumptions).map(([name, a]) => [
    name,
    { ...a, value: name === 'platformLogBytes' ? platformLogBytes : (a.value ?? 0) },
  ]),
) as Record<keyof typeof data.assumptions, Assumption>;

/** Each resource type a stage deploys: the fixed bill line that prices it, or why none does. */
export const RESOURCE_TYPES: Record<string, { line: string } | { none: string }> =
  data.resourceTypes;

export const STREAM_READS_FREE: Sourced & { what: string } = data.streamReadsFree;
