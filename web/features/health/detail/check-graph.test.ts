import { describe, expect, it } from 'vitest';
import { graphGeometry } from './check-graph';

describe('graph geometry', () => {
  const from = Date.parse('2024-01-01T00:00:00Z');
  const to = from + 600_000;
  it('draws each bucket’s mean as a step and its results as stacked bars', () => {
    const points = [
      { time: '2024-01-01T00:00:00.000Z', passed: 2, failed: 0, avg: 50, max: 60 },
      { time: '2024-01-01T00:05:00.000Z', passed: 1, failed: 1, avg: 100, max: 100 },
    ];
    const geometry = graphGeometry(points, from, to, 300_000);
    expect(geometry.maxLatency).toBe(100);
    expect(geometry.latencyPath).toBe('M0.0,50.0H300.0L300.0,2.0H600.0');
    expect(geometry.bars.map((bar) => [bar.passedHeight, bar.failedHeight])).toEqual([[36, 0], [18, 18]]);
  });
  it('still draws a single bucket', () => {
    const geometry = graphGeometry([{ time: '2024-01-01T00:09:59.000Z', passed: 1, failed: 0, avg: 5, max: 5 }], from, to, 1000);
    expect(geometry.latencyPath).toMatch(/^M599\.0,2\.0H600\.0$/);
    expect(geometry.bars[0]?.width).toBeGreaterThanOrEqual(1);
  });
});
