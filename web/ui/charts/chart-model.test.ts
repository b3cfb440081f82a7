import { describe, expect, it } from 'vitest';
import { tooltipContent, valueRange, withGaps } from './chart-model';
import type { ChartUnit } from './types';

const unit: ChartUnit = { key: 'ms', label: 'Latency', format: (value) => `${value}ms` };

describe('the time chart’s data', () => {
  const chart = {
    times: [0, 10, 30],
    series: [
      { label: 'Mean', values: [5, 6, 7], color: '#000000', unit, style: 'steps' as const },
      { label: 'Other', values: [1, null, 3], color: '#ff0000', unit },
    ],
    strip: { label: 'Results', tones: ['pass' as const, 'fail' as const, 'mixed' as const] },
  };

  it('closes each run of buckets at its last bucket’s end and breaks the lines over the gap after it', () => {
    const drawn = withGaps(chart, 10);
    // 0 and 10 are one run; 30 follows a gap; the data ends with 30's bucket.
    expect(drawn.times).toEqual([0, 10, 20, 21, 30, 40]);
    expect(drawn.original).toEqual([0, 1, 1, -1, 2, 2]);
    expect(drawn.series[0]?.values).toEqual([5, 6, 6, null, 7, 7]);
    expect(drawn.series[1]?.values).toEqual([1, null, null, null, 3, null]);
    expect(drawn.strip?.tones).toEqual(['pass', 'fail', null, null, 'mixed', null]);
    expect(withGaps(chart, undefined).times).toEqual([0, 10, 30]);
  });

  it('reads a bucket’s closing point as the bucket, and a gap as nothing', () => {
    const drawn = withGaps({ ...chart, details: (index: number) => [`bucket ${index}`] }, 10);
    const at = (index: number) => tooltipContent(drawn, index, 'timestamp', 'UTC');
    expect(at(2)).toEqual({ time: '1970-01-01 00:00:00.010', rows: [{ label: 'Mean', value: '6ms', color: '#000000' }], details: ['bucket 1'] });
    expect(at(5)?.rows.map((row) => row.value)).toEqual(['7ms', '3ms']);
    expect(at(3)).toBeNull();
  });

  it('scales values from zero to a little above the largest', () => {
    expect(valueRange(5, 100)).toEqual([0, 108]);
    expect(valueRange(-10, 10)).toEqual([-10, 11.6]);
    expect(valueRange(null, null)).toEqual([0, 1.08]);
  });
});
