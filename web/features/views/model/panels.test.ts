import { describe, expect, it } from 'vitest';
import { panelSchema } from '../api/schema';
import { arcPath, bars, gaugeOptionsOf, heatCells, pieSlices, properties, rowValue, textLines, timeSeries, timeSeriesChart } from './panels';

const panel = (input: Record<string, unknown>) => panelSchema.parse({ name: 'p', ...input });

describe('panel data shaping', () => {
  it('makes pie slices from count + label rows, with the file colours, leaving out empty counts', () => {
    const slices = pieSlices(
      panel({
        type: 'piechart',
        piechart: { colors: { healthy: '#28C19B' } },
        rows: [
          { count: 3, health: 'healthy' },
          { count: '2', health: 'unhealthy' },
          { count: 0, health: 'warning' },
        ],
      }),
    );
    expect(slices).toEqual([
      { label: 'healthy', value: 3, color: '#28C19B' },
      { label: 'unhealthy', value: 2, color: '#ef4444' },
    ]);
    expect(arcPath(10, 0, 1)).toContain('A 10 10 0 1 1');
    expect(arcPath(10, 0, 0.25)).toMatch(/^M 10 10 L 10\.000 0\.000 A 10 10 0 0 1 20\.000 10\.000 Z$/);
  });

  it('reads a number panel value from value/count or the first numeric field', () => {
    expect(rowValue({ value: '42' })).toBe(42);
    expect(rowValue({ name: 'x', n: 7 })).toBe(7);
    expect(rowValue(undefined)).toBeNull();
  });

  it('shapes bar gauges, properties and text lines', () => {
    expect(bars(panel({ type: 'bargauge', rows: [{ name: 'Real', value: 9.1 }, { name: 'Limits', value: 'x' }] }))).toEqual([{ label: 'Real', value: 9.1 }]);
    expect(gaugeOptionsOf(panel({ type: 'bargauge', bargauge: { min: '0', max: '100', unit: '%' } }), 'bargauge')).toMatchObject({ min: '0', max: '100', unit: '%' });
    expect(properties(panel({ type: 'properties', rows: [{ label: 'Healthy', value: '3' }] }))).toEqual([{ label: 'Healthy', value: '3' }]);
    expect(textLines(panel({ type: 'text', rows: [{ value: 'a' }, { other: 'b' }] }))).toEqual(['a', 'b']);
  });

  it('groups timeseries points by their text field and sorts them by time', () => {
    const series = timeSeries(
      panel({
        type: 'timeseries',
        timeseries: { timeKey: 'ts', valueKey: 'v' },
        rows: [
          { ts: '2025-01-01T00:02:00Z', v: 2, instance: 'a' },
          { ts: '2025-01-01T00:01:00Z', v: 1, instance: 'a' },
          { ts: '2025-01-01T00:01:00Z', v: 5, instance: 'b' },
          { ts: 'bad', v: 5, instance: 'b' },
        ],
      }),
    );
    expect(series.map((s) => [s.name, s.points.map((p) => p.v)])).toEqual([
      ['a', [1, 2]],
      ['b', [5]],
    ]);
  });

  it('aligns timeseries on the union of their times for the time chart, in the panel’s style and legend', () => {
    const chart = timeSeriesChart(
      panel({
        name: 'Pods',
        type: 'timeseries',
        timeseries: { timeKey: 'ts', valueKey: 'pods', style: 'area', legend: { layout: 'vertical' } },
        rows: [
          { ts: '2025-01-01T00:02:00Z', pods: 2, instance: 'a' },
          { ts: '2025-01-01T00:01:00Z', pods: 1.5, instance: 'a' },
          { ts: '2025-01-01T00:03:00Z', pods: 5, instance: 'b' },
        ],
      }),
    );
    const minute = (n: number) => Date.parse('2025-01-01T00:00:00Z') + n * 60_000;
    expect(chart?.times).toEqual([minute(1), minute(2), minute(3)]);
    expect(chart?.series.map((s) => [s.label, s.values, s.style, s.joinGaps])).toEqual([
      ['a', [1.5, 2, null], 'area', true],
      ['b', [null, null, 5], 'area', true],
    ]);
    expect(chart?.series[0]?.unit.label).toBe('pods');
    expect(chart?.series[0]?.unit.format(1234.5)).toBe('1,234.5');
    expect(chart?.legend).toBe('vertical');
    expect(chart?.label).toBe('Pods: 2 series of pods over time, up to 5');
    expect(timeSeriesChart(panel({ type: 'timeseries', timeseries: { legend: { enable: false } }, rows: [{ timestamp: '2025-01-01T00:00:00Z', value: 1 }] }))?.legend).toBe('none');
    expect(timeSeriesChart(panel({ type: 'timeseries', rows: [] }))).toBeNull();
  });

  it('gives heatmap days colour levels in quarters of the busiest day', () => {
    const cells = heatCells(panel({ type: 'heatmap', rows: [{ date: '2025-01-02', count: 4 }, { date: '2025-01-01T00:00:00Z', count: 1 }, { date: '2025-01-03', count: 0 }] }));
    expect(cells).toEqual([
      { date: '2025-01-01', count: 1, level: 1 },
      { date: '2025-01-02', count: 4, level: 4 },
      { date: '2025-01-03', count: 0, level: 0 },
    ]);
  });
});
