import { describe, expect, it } from 'vitest';
import { firstRunAt, parseDuration, parseSchedule, ScheduleError } from './schedule';

const at = (iso: string) => new Date(iso);

describe('parseDuration', () => {
  it('reads Go-style durations', () => {
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('1d')).toBe(86_400_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('250ms')).toBe(250);
  });

  it('rejects anything else', () => {
    for (const bad of ['', '5', 'm', '5 m', '5x', '-5m', '5m!']) expect(parseDuration(bad)).toBeUndefined();
  });
});

describe('parseSchedule', () => {
  it('runs @every on the grid of the claimed slot', () => {
    const every = parseSchedule('@every 30s');
    const slot = at('2024-01-01T00:00:00Z');
    expect(every.next(slot, at('2024-01-01T00:00:00.200Z'))).toEqual(at('2024-01-01T00:00:30Z'));
    // Missed slots are coalesced into the next one after now, not replayed.
    expect(every.next(slot, at('2024-01-01T00:02:05Z'))).toEqual(at('2024-01-01T00:02:30Z'));
    // A slot claimed early (clock edge) still moves forward.
    expect(every.next(slot, at('2023-12-31T23:59:59Z'))).toEqual(at('2024-01-01T00:00:30Z'));
    expect(parseSchedule('@every 5m').next(slot, slot)).toEqual(at('2024-01-01T00:05:00Z'));
    expect(parseSchedule('@every 1h30m').next(slot, slot)).toEqual(at('2024-01-01T01:30:00Z'));
  });

  it('reads @hourly, @daily, @weekly and cron in UTC', () => {
    const now = at('2024-01-03T10:17:00Z'); // a Wednesday
    expect(parseSchedule('@hourly').next(now, now)).toEqual(at('2024-01-03T11:00:00Z'));
    expect(parseSchedule('@daily').next(now, now)).toEqual(at('2024-01-04T00:00:00Z'));
    expect(parseSchedule('@weekly').next(now, now)).toEqual(at('2024-01-07T00:00:00Z'));
    expect(parseSchedule('@DAILY').next(now, now)).toEqual(at('2024-01-04T00:00:00Z'));
    expect(parseSchedule('*/15 * * * *').next(now, now)).toEqual(at('2024-01-03T10:30:00Z'));
    expect(parseSchedule('0 9 * * 1-5').next(now, now)).toEqual(at('2024-01-04T09:00:00Z'));
    expect(parseSchedule('*/10 * * * * *').next(now, now)).toEqual(at('2024-01-03T10:17:10Z'));
  });

  it('cron ignores the slot and answers the first time after now', () => {
    const hourly = parseSchedule('@hourly');
    expect(hourly.next(at('2024-01-01T00:00:00Z'), at('2024-01-03T10:17:00Z'))).toEqual(at('2024-01-03T11:00:00Z'));
  });

  it('explains what is wrong', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /empty/],
      ['@every', /write @every <duration>/],
      ['@every soon', /not a duration/],
      ['@every 500ms', /at least 1s/],
      ['@fortnightly', /unknown shorthand/],
      ['* * *', /five, six, or seven|parts/],
      ['61 * * * *', /invalid schedule/],
    ];
    for (const [text, reason] of cases) {
      expect(() => parseSchedule(text), text).toThrow(ScheduleError);
      expect(() => parseSchedule(text), text).toThrow(reason);
    }
  });

  it('gives a new row its first slot', () => {
    const now = at('2024-01-01T00:00:10Z');
    expect(firstRunAt('@every 1m', now)).toEqual(at('2024-01-01T00:01:10Z'));
    expect(firstRunAt('@hourly', now)).toEqual(at('2024-01-01T01:00:00Z'));
    // Spread by key within one interval: stable per key, different across keys, never beyond the interval.
    const spread = Array.from({ length: 1000 }, (_, i) => firstRunAt('@every 30s', now, `canary-${i}`).getTime() - now.getTime());
    expect(firstRunAt('@every 30s', now, 'canary-7')).toEqual(firstRunAt('@every 30s', now, 'canary-7'));
    expect(Math.min(...spread)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...spread)).toBeLessThan(30_000);
    const perSecond = new Map<number, number>();
    for (const ms of spread) perSecond.set(Math.floor(ms / 1000), (perSecond.get(Math.floor(ms / 1000)) ?? 0) + 1);
    expect(perSecond.size).toBe(30);
    expect(Math.max(...perSecond.values())).toBeLessThan(70); // about 33 a second, none crowded
    expect(firstRunAt('@hourly', now, 'canary-7')).toEqual(at('2024-01-01T01:00:00Z'));
  });
});
