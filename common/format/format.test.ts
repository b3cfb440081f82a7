import { describe, expect, it } from 'vitest';
import { formatBytes } from './bytes';
import { formatAxisDate, formatDate, isEmptyDate, listTimeZones, zoneOffsetMinutes } from './date';
import { formatDuration } from './duration';
import { formatLatency } from './latency';
import { formatRelative } from './relative';
import { formatGroupUptime, formatUptime } from './uptime';

describe('formatDuration', () => {
  it('shows days, hours, minutes and seconds, leaving zero parts out', () => {
    expect(formatDuration(((26 * 60 + 3) * 60 + 4) * 1000)).toBe('1d 2h 3m 4s');
    expect(formatDuration(90_000)).toBe('1m 30s');
    expect(formatDuration(3_600_000)).toBe('1h');
  });
  it('shows under one second in milliseconds', () => {
    expect(formatDuration(250)).toBe('250ms');
    expect(formatDuration(0)).toBe('0ms');
  });
  it('is empty for missing values', () => {
    expect(formatDuration(null)).toBe('');
    expect(formatDuration(undefined)).toBe('');
    expect(formatDuration(-5)).toBe('');
  });
});

describe('formatBytes', () => {
  it('steps by 1024 up to YB', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1024 ** 3)).toBe('1 GB');
    expect(formatBytes(1024 ** 8)).toBe('1 YB');
    expect(formatBytes(1024 ** 9)).toBe('1024 YB');
  });
  it('keeps the sign', () => {
    expect(formatBytes(-2048)).toBe('-2 KB');
  });
});

describe('formatRelative', () => {
  const now = new Date('2024-06-15T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  it('reads 1m 5h 2d 1mo 1y', () => {
    expect(formatRelative(ago(60_000), now)).toBe('1m');
    expect(formatRelative(ago(5 * 3_600_000), now)).toBe('5h');
    expect(formatRelative(ago(2 * 86_400_000), now)).toBe('2d');
    expect(formatRelative(ago(31 * 86_400_000), now)).toBe('1mo');
    expect(formatRelative(ago(366 * 86_400_000), now)).toBe('1y');
    expect(formatRelative(ago(30_000), now)).toBe('30s');
  });
  it('is empty for invalid input', () => {
    expect(formatRelative('nonsense', now)).toBe('');
    expect(formatRelative(null, now)).toBe('');
  });
});

describe('formatDate', () => {
  const value = '2024-01-01T10:30:01.999Z';
  it('formats the four display formats in a given zone', () => {
    expect(formatDate(value, 'timestamp', 'UTC')).toBe('2024-01-01 10:30:01.999');
    expect(formatDate(value, 'full', 'UTC')).toBe('Jan 1 10:30:01.999');
    expect(formatDate(value, 'medium', 'UTC')).toBe('Mon 10:30:01');
    expect(formatDate(value, 'short', 'UTC', new Date('2024-01-01T11:30:01.999Z'))).toBe('1h');
  });
  it('converts to the zone', () => {
    expect(formatDate(value, 'timestamp', 'Asia/Kolkata')).toBe('2024-01-01 16:00:01.999');
    expect(formatDate('2024-01-01T02:00:00.000Z', 'medium', 'America/New_York')).toBe('Sun 21:00:00');
    expect(formatDate('2024-01-01T02:00:00.000Z', 'full', 'America/New_York')).toBe('Dec 31 21:00:00.000');
  });
  it("uses the browser's zone for 'Browser' and for an unknown zone", () => {
    const local = new Date(2024, 4, 6, 7, 8, 9, 10);
    expect(formatDate(local, 'timestamp', 'Browser')).toBe('2024-05-06 07:08:09.010');
    expect(formatDate(local, 'timestamp', 'Not/AZone')).toBe('2024-05-06 07:08:09.010');
  });
  it('treats the zero date, missing and invalid values as empty', () => {
    expect(formatDate('0001-01-01T00:00:00Z', 'timestamp', 'UTC')).toBe('');
    expect(isEmptyDate('0001-01-01T00:00:00Z')).toBe(true);
    expect(formatDate(null, 'full')).toBe('');
    expect(formatDate('garbage', 'full')).toBe('');
    expect(isEmptyDate('2024-01-01')).toBe(false);
  });
});

describe('formatAxisDate', () => {
  const value = '2024-01-01T10:30:01.999Z';
  it('writes a tick in the chosen format, to the precision of the step', () => {
    expect(formatAxisDate(value, 'timestamp', 5 * 60_000, 'UTC')).toBe('2024-01-01 10:30');
    expect(formatAxisDate(value, 'timestamp', 10_000, 'UTC')).toBe('2024-01-01 10:30:01');
    expect(formatAxisDate(value, 'timestamp', 100, 'UTC')).toBe('2024-01-01 10:30:01.999');
    expect(formatAxisDate(value, 'timestamp', 86_400_000, 'UTC')).toBe('2024-01-01');
    expect(formatAxisDate(value, 'full', 3_600_000, 'UTC')).toBe('Jan 1 10:30');
    expect(formatAxisDate(value, 'full', 86_400_000, 'UTC')).toBe('Jan 1');
    expect(formatAxisDate(value, 'medium', 60_000, 'UTC')).toBe('Mon 10:30');
    expect(formatAxisDate(value, 'medium', 86_400_000, 'UTC')).toBe('Mon Jan 1');
    expect(formatAxisDate(value, 'short', 60_000, 'UTC', new Date('2024-01-01T12:30:01.999Z'))).toBe('2h');
  });
  it('reads the time zone', () => {
    expect(formatAxisDate(value, 'full', 60_000, 'Asia/Kolkata')).toBe('Jan 1 16:00');
    expect(formatAxisDate(null, 'full', 60_000)).toBe('');
  });
});

describe('listTimeZones', () => {
  const zones = listTimeZones(new Date('2024-01-15T00:00:00Z'));
  it("puts 'Browser' first, then zones sorted by offset", () => {
    expect(zones[0]?.value).toBe('Browser');
    const rest = zones.slice(1);
    expect(rest.length).toBeGreaterThan(100);
    for (let i = 1; i < rest.length; i++) {
      expect(rest[i]!.offsetMinutes).toBeGreaterThanOrEqual(rest[i - 1]!.offsetMinutes);
    }
    expect(rest.find((z) => z.value === 'Asia/Tokyo')?.label).toBe('(UTC+09:00) Asia/Tokyo');
  });
  it('computes offsets with daylight saving', () => {
    expect(zoneOffsetMinutes('America/New_York', new Date('2024-01-15T00:00:00Z'))).toBe(-300);
    expect(zoneOffsetMinutes('America/New_York', new Date('2024-07-15T00:00:00Z'))).toBe(-240);
  });
});

describe('formatLatency', () => {
  it('switches units at 1000 ms and 60000 ms', () => {
    expect(formatLatency(999)).toBe('999ms');
    expect(formatLatency(1000)).toBe('1s');
    expect(formatLatency(1500)).toBe('1.5s');
    expect(formatLatency(59_999)).toBe('60s');
    expect(formatLatency(60_000)).toBe('1m');
    expect(formatLatency(90_000)).toBe('1.5m');
  });
});

describe('formatUptime', () => {
  it('shows a percentage with one decimal', () => {
    expect(formatUptime(199, 1)).toBe('99.5%');
    expect(formatUptime(10, 0)).toBe('100.0%');
    expect(formatUptime(0, 0)).toBe('');
    expect(formatGroupUptime(3, 4)).toBe('3/4');
  });
});
