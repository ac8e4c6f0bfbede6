/** Percentiles and summaries of latency samples (milliseconds). */

export interface Summary {
  count: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

/** The p-th percentile (0–100) by nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

/** count, p50, p99, max and mean of the samples. */
export function summarize(samples: readonly number[]): Summary {
  const count = samples.length;
  const mean = count === 0 ? Number.NaN : samples.reduce((a, b) => a + b, 0) / count;
  const max = count === 0 ? Number.NaN : Math.max(...samples);
  return { count, p50: percentile(samples, 50), p99: percentile(samples, 99), max, mean };
}

/** Rounds to `digits` decimals (keeps NaN/null out of JSON as null). */
export function round(value: number, digits = 1): number | null {
  if (!Number.isFinite(value)) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
