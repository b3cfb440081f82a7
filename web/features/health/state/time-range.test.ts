import { describe, expect, it } from 'vitest';
import { absoluteRange, relativeRange } from '@web/ui/time-range';
import { defaultCheckRange, timeRangeFromParam, timeRangeToApi, timeRangeToParam } from './time-range';

describe('health time range', () => {
  it('round-trips relative, quick and absolute ranges through one parameter', () => {
    for (const value of [relativeRange('1mo'), { type: 'mapped' as const, display: 'Yesterday', from: 'now-1d/d', to: 'now-1d/d' }, absoluteRange(new Date('2024-01-01T00:00:00Z'), new Date('2024-01-02T00:00:00Z'))]) {
      expect(timeRangeFromParam(timeRangeToParam(value))).toEqual(value);
    }
  });

  it('sends relative ranges as they are and resolves the others', () => {
    expect(timeRangeToApi(relativeRange('3h'))).toEqual({ start: '3h' });
    expect(timeRangeToApi(absoluteRange(new Date('2024-01-01T00:00:00Z'), new Date('2024-01-02T00:00:00Z')))).toEqual({ start: '2024-01-01T00:00:00.000Z', end: '2024-01-02T00:00:00.000Z' });
  });

  it('picks the check default from the last run age, 1h up to 5y (spec §9)', () => {
    const now = new Date('2024-06-10T12:00:00Z');
    const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
    expect(defaultCheckRange(null, now)).toBe('1h');
    expect(defaultCheckRange(ago(5), now)).toBe('1h');
    expect(defaultCheckRange(ago(61), now)).toBe('2h');
    expect(defaultCheckRange(ago(60 * 30), now)).toBe('2d');
    expect(defaultCheckRange(ago(60 * 24 * 8), now)).toBe('2w');
    expect(defaultCheckRange(ago(60 * 24 * 365 * 10), now)).toBe('5y');
  });
});
