// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { absoluteRange, parseInputDate } from './absolute';
import { evaluateExpression, QUICK_RANGES } from './mapped';
import { readRecentRanges, rememberRange } from './recent';
import { PAST_RANGE_OPTIONS, parseRelativeRange, relativeDisplay, relativeRange, relativeSpanWords } from './relative';
import { resolveTimeRange } from './resolve';
import type { TimeRangeValue } from './types';
import { timeRangeFromParams, timeRangeToParams, writeTimeRangeParams } from './url';

// Wednesday 2024-05-15 14:30:00 local time.
const now = new Date(2024, 4, 15, 14, 30, 0);
const local = (y: number, m: number, d: number, h = 0, min = 0, s = 0, ms = 0) => new Date(y, m - 1, d, h, min, s, ms);
const quick = (display: string) => {
  const range = QUICK_RANGES.find((r) => r.display === display);
  if (!range) throw new Error(`no quick range ${display}`);
  return resolveTimeRange(range, now);
};

describe('relative ranges', () => {
  it('parses the spec list, with m minutes and M months', () => {
    expect(PAST_RANGE_OPTIONS.map((r) => r.range)).toEqual(['5m', '15m', '30m', '1h', '3h', '6h', '12h', '24h', '2d', '7d', '30d', '90d', '6M', '1y', '2y', '5y']);
    expect(parseRelativeRange('6M')).toEqual({ amount: 6, unit: 'M' });
    expect(parseRelativeRange('1mo')).toEqual({ amount: 1, unit: 'mo' });
    expect(parseRelativeRange('0d')).toBeNull();
    expect(parseRelativeRange('2 days')).toBeNull();
    expect(relativeDisplay('1h')).toBe('Last 1 hour');
    expect(relativeDisplay('6M')).toBe('Last 6 months');
    // Mid-sentence (the Logs page's empty state): 'Nothing was written in the last hour'.
    expect(relativeSpanWords('1h')).toBe('the last hour');
    expect(relativeSpanWords('15m')).toBe('the last 15 minutes');
    expect(relativeSpanWords('soon')).toBe('soon');
  });
  it('resolves to now minus the range', () => {
    expect(resolveTimeRange(relativeRange('2d'), now)).toEqual({ from: local(2024, 5, 13, 14, 30), to: now });
    expect(resolveTimeRange(relativeRange('30m'), now)?.from).toEqual(local(2024, 5, 15, 14, 0));
    expect(resolveTimeRange(relativeRange('6M'), now)?.from).toEqual(local(2023, 11, 15, 14, 30));
  });
  it('logs an invalid range and gives null', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(resolveTimeRange({ type: 'relative', display: 'x', range: 'soon' }, now)).toBeNull();
    expect(resolveTimeRange({ type: 'absolute', display: 'x', from: '2024-02-01', to: '2024-01-01' }, now)).toBeNull();
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});

describe('quick (mapped) ranges', () => {
  it('lists the 14 spec ranges in order', () => {
    expect(QUICK_RANGES.map((r) => r.display)).toEqual([
      'Yesterday', 'Day before yesterday', 'This day last week', 'Previous week', 'Previous month', 'Previous year',
      'Today', 'Today so far', 'This week', 'This week so far', 'This month', 'This month so far', 'This year', 'This year so far',
    ]);
    expect(QUICK_RANGES.every((r) => r.type === 'mapped')).toBe(true);
  });
  it('resolves whole calendar units', () => {
    expect(quick('Yesterday')).toEqual({ from: local(2024, 5, 14), to: local(2024, 5, 14, 23, 59, 59, 999) });
    expect(quick('Day before yesterday')?.from).toEqual(local(2024, 5, 13));
    expect(quick('This day last week')).toEqual({ from: local(2024, 5, 8), to: local(2024, 5, 8, 23, 59, 59, 999) });
    expect(quick('Previous week')).toEqual({ from: local(2024, 5, 6), to: local(2024, 5, 12, 23, 59, 59, 999) });
    expect(quick('Previous month')).toEqual({ from: local(2024, 4, 1), to: local(2024, 4, 30, 23, 59, 59, 999) });
    expect(quick('Previous year')).toEqual({ from: local(2023, 1, 1), to: local(2023, 12, 31, 23, 59, 59, 999) });
    expect(quick('Today')).toEqual({ from: local(2024, 5, 15), to: local(2024, 5, 15, 23, 59, 59, 999) });
    expect(quick('Today so far')).toEqual({ from: local(2024, 5, 15), to: now });
    expect(quick('This week')).toEqual({ from: local(2024, 5, 13), to: local(2024, 5, 19, 23, 59, 59, 999) });
    expect(quick('This week so far')).toEqual({ from: local(2024, 5, 13), to: now });
    expect(quick('This month')).toEqual({ from: local(2024, 5, 1), to: local(2024, 5, 31, 23, 59, 59, 999) });
    expect(quick('This month so far')).toEqual({ from: local(2024, 5, 1), to: now });
    expect(quick('This year')).toEqual({ from: local(2024, 1, 1), to: local(2024, 12, 31, 23, 59, 59, 999) });
    expect(quick('This year so far')).toEqual({ from: local(2024, 1, 1), to: now });
  });
  it("throws 'Invalid mapped time range' for an unknown mapping", () => {
    expect(() => resolveTimeRange({ type: 'mapped', display: 'Someday', from: 'someday', to: 'now' }, now)).toThrow('Invalid mapped time range');
    expect(() => evaluateExpression('now-1q/d', now, 'from')).toThrow('Invalid mapped time range');
  });
});

describe('absolute ranges', () => {
  it('parses typed dates and resolves to the same instants', () => {
    expect(parseInputDate('2024-01-02 03:04:05')).toEqual(local(2024, 1, 2, 3, 4, 5));
    expect(parseInputDate('2024-01-02')).toEqual(local(2024, 1, 2));
    expect(parseInputDate('2024-13-02')).toBeNull();
    expect(parseInputDate('yesterday')).toBeNull();
    const range = absoluteRange(local(2024, 1, 2), local(2024, 1, 3, 12));
    expect(range.display).toBe('2024-01-02 00:00:00 to 2024-01-03 12:00:00');
    expect(resolveTimeRange(range, now)).toEqual({ from: local(2024, 1, 2), to: local(2024, 1, 3, 12) });
  });
});

describe('URL parameters', () => {
  const fallback = relativeRange('2d');
  const roundTrip = (value: TimeRangeValue) => timeRangeFromParams(new URLSearchParams(timeRangeToParams(value)), fallback);
  it('round-trips every kind', () => {
    expect(timeRangeToParams(relativeRange('1h'))).toEqual({ range: '1h' });
    expect(roundTrip(relativeRange('1h'))).toEqual(relativeRange('1h'));
    const yesterday = QUICK_RANGES[0]!;
    expect(timeRangeToParams(yesterday)).toEqual({ from: 'now-1d/d', to: 'now-1d/d' });
    expect(roundTrip(yesterday)).toEqual(yesterday);
    const absolute = absoluteRange(local(2024, 1, 2), local(2024, 1, 3));
    expect(roundTrip(absolute)).toEqual(absolute);
  });
  it('replaces the keys of another kind and keeps unrelated ones', () => {
    const start = new URLSearchParams('range=1h&status=FAILED');
    const next = writeTimeRangeParams(start, QUICK_RANGES[0]!);
    expect(next.get('range')).toBeNull();
    expect(next.get('status')).toBe('FAILED');
    expect(next.get('from')).toBe('now-1d/d');
    expect(start.get('range')).toBe('1h');
  });
  it('falls back, logging, on unusable parameters', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(timeRangeFromParams(new URLSearchParams(''), fallback)).toBe(fallback);
    expect(timeRangeFromParams(new URLSearchParams('range=forever'), fallback)).toBe(fallback);
    expect(timeRangeFromParams(new URLSearchParams('from=now-1q&to=now'), fallback)).toBe(fallback);
    expect(timeRangeFromParams(new URLSearchParams('from=garbage&to=2024-01-01'), fallback)).toBe(fallback);
    expect(warn).toHaveBeenCalledTimes(3);
    warn.mockRestore();
  });
});

describe('recent ranges', () => {
  beforeEach(() => localStorage.clear());
  it('keeps the 5 most recent, newest first, without duplicates', () => {
    for (const range of ['5m', '15m', '30m', '1h', '3h', '6h']) rememberRange(relativeRange(range));
    rememberRange(relativeRange('30m'));
    expect(readRecentRanges().map((r) => r.display)).toEqual(['Last 30 minutes', 'Last 6 hours', 'Last 3 hours', 'Last 1 hour', 'Last 15 minutes']);
  });
  it('ignores malformed storage', () => {
    localStorage.setItem('recentTimeRanges', JSON.stringify([{ type: 'relative' }, 'x', relativeRange('1h')]));
    expect(readRecentRanges()).toEqual([relativeRange('1h')]);
    localStorage.setItem('recentTimeRanges', '{oops');
    expect(readRecentRanges()).toEqual([]);
  });
});
