import { describe, expect, it } from 'vitest';
import { check } from '../test-fixtures';
import { refreshRateMs } from './refresh';
import { sortChecks } from './sort';

const uptime = (passed: number, failed: number) => ({ passed, failed, last_pass: null, last_fail: null });

describe('card order', () => {
  it('sorts like the table, missing values last in either direction', () => {
    const list = [check({ id: 'a', name: 'b', uptime: uptime(1, 1) }), check({ id: 'b', name: 'a', uptime: uptime(0, 0) }), check({ id: 'c', name: 'c', uptime: uptime(1, 0) })];
    expect(sortChecks(list, 'name', false).map((c) => c.name)).toEqual(['a', 'b', 'c']);
    expect(sortChecks(list, 'uptime', true).map((c) => c.id)).toEqual(['c', 'a', 'b']);
    expect(sortChecks(list, 'uptime', false).map((c) => c.id)).toEqual(['a', 'c', 'b']);
  });
});

describe('refresh rate (spec §7 units s m h d w)', () => {
  it('reads every unit, and None as never', () => {
    expect(refreshRateMs('30s')).toBe(30_000);
    expect(refreshRateMs('5m')).toBe(300_000);
    expect(refreshRateMs('1h')).toBe(3_600_000);
    expect(refreshRateMs('1d')).toBe(86_400_000);
    expect(refreshRateMs('1w')).toBe(604_800_000);
    expect(refreshRateMs('None')).toBe(0);
    expect(refreshRateMs('5y')).toBe(0);
  });
});
