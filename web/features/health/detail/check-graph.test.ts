import { describe, expect, it } from 'vitest';
import { graphChart } from './check-graph';

describe('the check graph as a chart', () => {
  const answer = {
    check_id: 'c',
    source: 'raw' as const,
    step_ms: 300_000,
    from: '2024-01-01T00:00:00.000Z',
    to: '2024-01-01T00:15:00.000Z',
    status: [
      { time: '2024-01-01T00:00:00.000Z', status: true, duration: 50, count: 2, passed: 2, failed: 0, max: 60 },
      { time: '2024-01-01T00:05:00.000Z', status: false, duration: 100, count: 2, passed: 1, failed: 1, max: 180 },
      { time: '2024-01-01T00:10:00.000Z', status: false, duration: 1500, count: 1, passed: 0, failed: 1, max: 1500 },
    ],
    uptime: { passed: 3, failed: 2 },
  };

  it('plots each bucket’s mean and slowest latency over the whole range, with its results as the strip', () => {
    const chart = graphChart(answer);
    expect(chart.times).toEqual([0, 5, 10].map((minutes) => Date.parse('2024-01-01T00:00:00Z') + minutes * 60_000));
    expect(chart.span).toEqual({ from: Date.parse(answer.from), to: Date.parse(answer.to) });
    expect(chart.step).toBe(300_000);
    expect(chart.series.map((series) => [series.label, series.values])).toEqual([
      ['Mean latency', [50, 100, 1500]],
      ['Slowest', [60, 180, 1500]],
    ]);
    expect(chart.series[0]?.unit.format(1500)).toBe('1.5s');
    expect(chart.strip).toEqual({ label: 'Results: 3 passed, 2 failed', tones: ['pass', 'mixed', 'fail'] });
    expect(chart.details?.(1)).toEqual(['1 passed, 1 failed']);
    expect(chart.label).toBe('Latency and results over the range: 3 passed, 2 failed, mean latency up to 1.5s');
  });

  it('leaves out the slowest line over rollups (they keep no maximum)', () => {
    const chart = graphChart({ ...answer, source: 'hourly', status: answer.status.map(({ max: _max, ...bucket }) => bucket) });
    expect(chart.series.map((series) => series.label)).toEqual(['Mean latency']);
  });
});
