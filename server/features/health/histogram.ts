/**
 * Latency histograms as the database keeps them (migration 0005, latency_bucket): bucket b holds
 * durations in (1.1^(b-1), 1.1^b] ms; bucket 0 is 1 ms or less. The database keeps a sparse histogram as
 * two arrays of the same length (buckets in order of first use, and counts); here it is held compactly,
 * buckets ascending, so that ten thousand of them stay small and merge in one pass. Estimates read a
 * bucket's geometric middle: within 5% of the truth.
 */
export interface Histogram {
  /** Bucket numbers, ascending, each once (0..150). */
  readonly buckets: Uint8Array;
  /** The count of each bucket, all > 0. */
  readonly counts: Float64Array;
}

export const LATENCY_FACTOR = 1.1;
export const MAX_BUCKET = 150;

export const EMPTY_HISTOGRAM: Histogram = { buckets: new Uint8Array(0), counts: new Float64Array(0) };

const LN_FACTOR = Math.log(LATENCY_FACTOR);

/** The bucket of a duration, as latency_bucket() in the database computes it. */
export function bucketOf(durationMs: number): number {
  return durationMs <= 1 ? 0 : Math.min(MAX_BUCKET, Math.ceil(Math.log(durationMs) / LN_FACTOR));
}

/** Dense counts (index = bucket) to a sparse histogram, dropping empty buckets. */
function fromDense(dense: Float64Array): Histogram {
  let size = 0;
  for (let b = 0; b <= MAX_BUCKET; b += 1) if ((dense[b] ?? 0) > 0) size += 1;
  if (size === 0) return EMPTY_HISTOGRAM;
  const buckets = new Uint8Array(size);
  const counts = new Float64Array(size);
  let i = 0;
  for (let b = 0; b <= MAX_BUCKET; b += 1) {
    const count = dense[b] ?? 0;
    if (count > 0) {
      buckets[i] = b;
      counts[i] = count;
      i += 1;
    }
  }
  return { buckets, counts };
}

// One scratch array for building histograms: the work is synchronous, so it is never shared.
const scratch = new Float64Array(MAX_BUCKET + 1);

/** Reads the integers of a PostgreSQL array literal such as `{45,46,47}` into `into`; returns how many. */
function readArrayLiteral(text: string, into: Float64Array): number {
  let n = 0;
  let value = 0;
  let digits = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      value = value * 10 + (code - 48);
      digits = true;
    } else if (digits) {
      if (n < into.length) into[n] = value;
      n += 1;
      value = 0;
      digits = false;
    }
  }
  return n;
}

const bucketScratch = new Float64Array(MAX_BUCKET + 1);
const countScratch = new Float64Array(MAX_BUCKET + 1);

/**
 * A histogram from the text of the two arrays (`hist_buckets::text`, `hist_counts::text`): parsing them
 * here is several times faster than the driver's array parser for thousands of rows.
 */
export function parseHistogram(bucketsText: string | null | undefined, countsText: string | null | undefined): Histogram {
  if (!bucketsText || !countsText || bucketsText.length <= 2) return EMPTY_HISTOGRAM;
  const n = Math.min(readArrayLiteral(bucketsText, bucketScratch), readArrayLiteral(countsText, countScratch), MAX_BUCKET + 1);
  scratch.fill(0);
  for (let i = 0; i < n; i += 1) {
    const bucket = bucketScratch[i] ?? -1;
    if (bucket >= 0 && bucket <= MAX_BUCKET) scratch[bucket] = (scratch[bucket] ?? 0) + (countScratch[i] ?? 0);
  }
  return fromDense(scratch);
}

/** A histogram of durations given as the text of an integer array (`array_agg(duration)::text`). */
export function histogramOfDurations(durationsText: string | null | undefined): Histogram {
  if (!durationsText || durationsText.length <= 2) return EMPTY_HISTOGRAM;
  scratch.fill(0);
  let value = 0;
  let digits = false;
  for (let i = 0; i < durationsText.length; i += 1) {
    const code = durationsText.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      value = value * 10 + (code - 48);
      digits = true;
    } else if (digits) {
      const bucket = bucketOf(value);
      scratch[bucket] = (scratch[bucket] ?? 0) + 1;
      value = 0;
      digits = false;
    }
  }
  return fromDense(scratch);
}

function estimate(bucket: number): number {
  if (bucket <= 0) return 1;
  return Math.round(LATENCY_FACTOR ** (bucket - 0.5));
}

/**
 * A sum of histograms with signs, in dense counts (index = bucket), read for quantiles and cleared over
 * only the buckets it touched: summing ten thousand checks' histograms allocates nothing.
 */
export class HistogramSum {
  private readonly counts = new Float64Array(MAX_BUCKET + 1);
  private lo = MAX_BUCKET + 1;
  private hi = -1;

  add(histogram: Histogram, sign: number): void {
    const n = histogram.buckets.length;
    if (n === 0) return;
    this.lo = Math.min(this.lo, histogram.buckets[0] ?? 0);
    this.hi = Math.max(this.hi, histogram.buckets[n - 1] ?? 0);
    for (let i = 0; i < n; i += 1) {
      const bucket = histogram.buckets[i] ?? 0;
      this.counts[bucket] = (this.counts[bucket] ?? 0) + sign * (histogram.counts[i] ?? 0);
    }
  }

  clear(): void {
    if (this.hi >= this.lo) this.counts.fill(0, this.lo, this.hi + 1);
    this.lo = MAX_BUCKET + 1;
    this.hi = -1;
  }

  /** The q-quantiles (ascending) in ms, or nulls when the sum is empty (counts at or below zero ignored). */
  quantiles(qs: readonly number[]): Array<number | null> {
    let total = 0;
    for (let b = this.lo; b <= this.hi; b += 1) total += Math.max(0, this.counts[b] ?? 0);
    if (total === 0) return qs.map(() => null);
    const out: Array<number | null> = [];
    let seen = 0;
    let b = this.lo;
    for (const q of qs) {
      const target = Math.max(1, Math.ceil(q * total));
      while (b <= this.hi && seen + Math.max(0, this.counts[b] ?? 0) < target) {
        seen += Math.max(0, this.counts[b] ?? 0);
        b += 1;
      }
      out.push(b <= this.hi ? estimate(b) : null);
    }
    return out;
  }
}
