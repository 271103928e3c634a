// The bench's summaries: a median with its interquartile range, and ratios rounded for reading.

export interface Spread {
  median: number;
  /** The interquartile range: half the runs lie within it. */
  q1: number;
  q3: number;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

const quantile = (sorted: number[], q: number) => {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (at - low);
};

export const spread = (values: number[]): Spread => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: round(quantile(sorted, 0.5)),
    q1: round(quantile(sorted, 0.25)),
    q3: round(quantile(sorted, 0.75)),
  };
};

export const ratio = (ours: number, baseline: number) => round(ours / baseline);
