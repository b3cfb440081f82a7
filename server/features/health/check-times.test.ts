import { describe, expect, it } from 'vitest';
import { checkTimes, LEAD_MILLIS, SPREAD_PER_CHECK_MILLIS } from './check-times';

const slot = new Date('2024-01-01T00:00:20Z');

describe('checkTimes', () => {
  it('gives each check the same offset in every slot, after the lead and within its spread', () => {
    const keys = Array.from({ length: 200 }, (_, i) => `http/endpoint-${i}`);
    const now = checkTimes('canary-1', '@every 20s', slot, keys.length);
    const next = checkTimes('canary-1', '@every 20s', new Date(slot.getTime() + 20_000), keys.length);
    expect(now.intervalMillis).toBe(20_000);
    const offsets = keys.map((key) => now.startOf(key) - slot.getTime());
    for (const key of keys) expect(next.startOf(key) - now.startOf(key)).toBe(20_000);
    // 200 checks × 50 ms = 10 s = half the interval, after a lead of 1 s.
    expect(Math.min(...offsets)).toBeGreaterThanOrEqual(LEAD_MILLIS);
    expect(Math.max(...offsets)).toBeLessThan(LEAD_MILLIS + 10_000);
    // Spread out, not bunched: every second of the spread holds some checks.
    const seconds = new Set(offsets.map((offset) => Math.floor((offset - LEAD_MILLIS) / 1000)));
    expect(seconds.size).toBe(10);
  });

  it('spreads a small canary over 50 ms a check, and never past half the interval', () => {
    const small = checkTimes('canary-2', '@every 30s', slot, 4);
    for (const key of ['a', 'b', 'c', 'd']) {
      expect(small.startOf(key) - slot.getTime()).toBeGreaterThanOrEqual(LEAD_MILLIS);
      expect(small.startOf(key) - slot.getTime()).toBeLessThan(LEAD_MILLIS + 4 * SPREAD_PER_CHECK_MILLIS);
    }
    const fast = checkTimes('canary-3', '@every 2s', slot, 1000);
    // A lead of a tenth of the interval, a spread of half of it.
    for (let i = 0; i < 1000; i += 1) {
      const offset = fast.startOf(`k${i}`) - slot.getTime();
      expect(offset).toBeGreaterThanOrEqual(200);
      expect(offset).toBeLessThan(1200);
    }
  });

  it('differs between canaries for the same check name, and reads a cron schedule’s interval from its next slot', () => {
    const a = checkTimes('canary-a', '@every 1m', slot, 100);
    const b = checkTimes('canary-b', '@every 1m', slot, 100);
    expect(a.startOf('http/home')).not.toBe(b.startOf('http/home'));
    const cron = checkTimes('canary-c', '*/5 * * * *', new Date('2024-01-01T00:05:00Z'), 10);
    expect(cron.intervalMillis).toBe(300_000);
    expect(cron.startOf('tcp/db') - Date.parse('2024-01-01T00:05:00Z')).toBeGreaterThanOrEqual(LEAD_MILLIS);
  });
});
