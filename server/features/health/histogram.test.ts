import { describe, expect, it } from 'vitest';
import { bucketOf, EMPTY_HISTOGRAM, HistogramSum, histogramOfDurations, MAX_BUCKET, parseHistogram } from './histogram';

const sum = new HistogramSum();

function quantilesOf(terms: Array<[1 | -1, string, string]>, qs: number[]): Array<number | null> {
  sum.clear();
  for (const [sign, buckets, counts] of terms) sum.add(parseHistogram(buckets, counts), sign);
  return sum.quantiles(qs);
}

describe('latency histograms', () => {
  it('reads the database arrays, in any order and with repeats, into ascending buckets', () => {
    const parsed = parseHistogram('{47,45,46,45}', '{1,2,3,4}');
    expect([...parsed.buckets]).toEqual([45, 46, 47]);
    expect([...parsed.counts]).toEqual([6, 3, 1]);
    expect(parseHistogram('{}', '{}')).toBe(EMPTY_HISTOGRAM);
    expect(parseHistogram(null, null)).toBe(EMPTY_HISTOGRAM);
  });

  it('builds a histogram from raw durations as the database buckets them', () => {
    const histogram = histogramOfDurations('{1,0,120,121,5000}');
    expect([...histogram.buckets]).toEqual([0, bucketOf(120), bucketOf(5000)]);
    expect([...histogram.counts]).toEqual([2, 2, 1]);
    expect(histogramOfDurations('{}')).toBe(EMPTY_HISTOGRAM);
  });

  it('estimates quantiles within 5% of the latency they stand for', () => {
    const counts = new Map<number, number>();
    for (let ms = 10; ms < 1010; ms += 1) counts.set(bucketOf(ms), (counts.get(bucketOf(ms)) ?? 0) + 1);
    const [p50, p99] = quantilesOf([[1, `{${[...counts.keys()].join(',')}}`, `{${[...counts.values()].join(',')}}`]], [0.5, 0.99]);
    expect(Math.abs((p50 ?? 0) - 509) / 509).toBeLessThan(0.05);
    expect(Math.abs((p99 ?? 0) - 999) / 999).toBeLessThan(0.05);
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(10 ** 9)).toBe(MAX_BUCKET);
  });

  it('reads the quantiles of a range from the signed sum of cumulative histograms', () => {
    // end − start leaves bucket 50: 5, 60: 25, 70: 40 (70 results).
    const [p50, p95] = quantilesOf([[1, '{40,50,60,70}', '{10,20,30,40}'], [-1, '{40,50,60}', '{10,15,5}']], [0.5, 0.95]);
    expect(p50).toBe(Math.round(1.1 ** 69.5));
    expect(p95).toBe(Math.round(1.1 ** 69.5));
    expect(quantilesOf([[1, '{40,50}', '{1,9}']], [0.1, 0.5])).toEqual([Math.round(1.1 ** 39.5), Math.round(1.1 ** 49.5)]);
    expect(quantilesOf([], [0.5])).toEqual([null]);
    // Cleared between sums: nothing of the previous one is left.
    expect(quantilesOf([[1, '{10}', '{1}']], [0.5])).toEqual([Math.round(1.1 ** 9.5)]);
  });
});
