import { describe, expect, it, vi } from 'vitest';
import { absoluteRange } from './absolute';
import { FUTURE_RANGE_OPTIONS, futureRange, INDEFINITELY } from './future';
import { PAST_RANGE_OPTIONS, relativeRange } from './relative';
import { resolveFutureTimeRange } from './resolve';
import type { FutureTimeRangeValue } from './types';
import { futureTimeRangeFromParams, futureTimeRangeToParams, timeRangeFromParams, writeFutureTimeRangeParams } from './url';

// Wednesday 2024-05-15 14:30:00 local time.
const now = new Date(2024, 4, 15, 14, 30, 0);
const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);

describe('future relative ranges', () => {
  it('runs the past lengths forward and adds Indefinitely last (spec §9)', () => {
    expect(FUTURE_RANGE_OPTIONS.map((r) => r.range)).toEqual([...PAST_RANGE_OPTIONS.map((r) => r.range), null]);
    expect(FUTURE_RANGE_OPTIONS[0]).toEqual({ type: 'relative', direction: 'future', display: 'Next 5 minutes', range: '5m' });
    expect(futureRange('1h').display).toBe('Next 1 hour');
    expect(futureRange('6M').display).toBe('Next 6 months');
    expect(FUTURE_RANGE_OPTIONS.at(-1)).toEqual(INDEFINITELY);
    expect(INDEFINITELY.display).toBe('Indefinitely');
  });

  it('resolves to now plus the range, and Indefinitely to no end', () => {
    expect(resolveFutureTimeRange(futureRange('2d'), now)).toEqual({ from: now, to: local(2024, 5, 17, 14, 30) });
    expect(resolveFutureTimeRange(futureRange('30m'), now)?.to).toEqual(local(2024, 5, 15, 15, 0));
    expect(resolveFutureTimeRange(futureRange('6M'), now)?.to).toEqual(local(2024, 11, 15, 14, 30));
    expect(resolveFutureTimeRange(futureRange('5y'), now)?.to).toEqual(local(2029, 5, 15, 14, 30));
    expect(resolveFutureTimeRange(INDEFINITELY, now)).toEqual({ from: now, to: null });
  });

  it('resolves absolute ranges as typed and logs nonsense', () => {
    const absolute = absoluteRange(local(2024, 6, 1), local(2024, 6, 2));
    expect(resolveFutureTimeRange(absolute, now)).toEqual({ from: local(2024, 6, 1), to: local(2024, 6, 2) });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(resolveFutureTimeRange(futureRange('soon'), now)).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});

describe('future URL parameters', () => {
  const fallback = futureRange('1h');
  const roundTrip = (value: FutureTimeRangeValue) => futureTimeRangeFromParams(new URLSearchParams(futureTimeRangeToParams(value)), fallback);

  it("round-trips ranges ahead, 'indefinitely' and absolute instants", () => {
    expect(futureTimeRangeToParams(futureRange('2d'))).toEqual({ range: '2d' });
    expect(roundTrip(futureRange('2d'))).toEqual(futureRange('2d'));
    expect(futureTimeRangeToParams(INDEFINITELY)).toEqual({ range: 'indefinitely' });
    expect(roundTrip(INDEFINITELY)).toEqual(INDEFINITELY);
    const absolute = absoluteRange(local(2024, 6, 1), local(2024, 6, 2));
    expect(roundTrip(absolute)).toEqual(absolute);
  });

  it('uses the page keys, replaces the other kind and keeps unrelated parameters', () => {
    const keys = { range: 'until', from: 'untilFrom', to: 'untilTo' };
    const start = new URLSearchParams('untilFrom=2024-01-01&untilTo=2024-01-02&q=x');
    const next = writeFutureTimeRangeParams(start, INDEFINITELY, keys);
    expect(next.toString()).toBe('q=x&until=indefinitely');
    expect(futureTimeRangeFromParams(next, fallback, keys)).toEqual(INDEFINITELY);
    expect(start.get('untilFrom')).toBe('2024-01-01');
  });

  it('falls back, logging, on unusable parameters; the past reader does not take indefinitely', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(futureTimeRangeFromParams(new URLSearchParams(''), fallback)).toBe(fallback);
    expect(futureTimeRangeFromParams(new URLSearchParams('range=forever'), fallback)).toBe(fallback);
    // Quick ranges are all in the past, so their expressions are no future range.
    expect(futureTimeRangeFromParams(new URLSearchParams('from=now-1d/d&to=now-1d/d'), fallback)).toBe(fallback);
    expect(futureTimeRangeFromParams(new URLSearchParams('from=2024-01-01'), fallback)).toBe(fallback);
    const pastFallback = relativeRange('2d');
    expect(timeRangeFromParams(new URLSearchParams('range=indefinitely'), pastFallback)).toBe(pastFallback);
    expect(warn).toHaveBeenCalledTimes(4);
    warn.mockRestore();
  });
});
