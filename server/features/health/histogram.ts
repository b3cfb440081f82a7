/**
 * Latency histograms as the database keeps them (migration 0005, latency_bucket): bucket b holds
 * durations in (1.1^(b-1), 1.1^b] ms; bucket 0 is 1 ms or less. A sparse histogram is two arrays of the
 * same length, buckets and counts. Estimates read a bucket's geometric middle: within 5% of the truth.
 */
export type Histogram = Map<number, number>;

export const LATENCY_FACTOR = 1.1;

export function bucketOf(durationMs: number): number {
  return durationMs <= 1 ? 0 : Math.min(150, Math.ceil(Math.log(durationMs) / Math.log(LATENCY_FACTOR)));
}

export function toHistogram(buckets: readonly number[] | null | undefined, counts: ReadonlyArray<number | string> | null | undefined): Histogram {
  const histogram: Histogram = new Map();
  if (!buckets || !counts) return histogram;
  buckets.forEach((bucket, index) => {
    const count = Number(counts[index] ?? 0);
    if (count > 0) histogram.set(bucket, (histogram.get(bucket) ?? 0) + count);
  });
  return histogram;
}

/** end − start, bucket by bucket (cumulative rollups: the counts of the range between them). */
export function subtract(end: Histogram, start: Histogram): Histogram {
  const out: Histogram = new Map();
  for (const [bucket, count] of end) {
    const left = count - (start.get(bucket) ?? 0);
    if (left > 0) out.set(bucket, left);
  }
  return out;
}

function estimate(bucket: number): number {
  if (bucket <= 0) return 1;
  return Math.round(LATENCY_FACTOR ** (bucket - 0.5));
}

/** The q-quantile (0 < q ≤ 1) of a histogram in ms, or null when it is empty. */
export function quantile(histogram: Histogram, q: number): number | null {
  let total = 0;
  for (const count of histogram.values()) total += count;
  if (total === 0) return null;
  const target = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const bucket of [...histogram.keys()].sort((a, b) => a - b)) {
    seen += histogram.get(bucket) ?? 0;
    if (seen >= target) return estimate(bucket);
  }
  return null;
}
