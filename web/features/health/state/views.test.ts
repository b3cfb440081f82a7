import { describe, expect, it } from 'vitest';
import { check } from '../test-fixtures';
import { buildPivot, summarisePivotCell } from './pivot';
import { refreshRateMs } from './refresh';
import { sortChecks } from './sort';

const uptime = (passed: number, failed: number) => ({ passed, failed, last_pass: null, last_fail: null });

describe('pivot', () => {
  const checks = [
    check({ id: '1', canary_name: 'web', labels: { env: 'prod' }, status: 'healthy', uptime: uptime(9, 1) }),
    check({ id: '2', canary_name: 'web', labels: { env: 'prod' }, status: 'unhealthy', uptime: uptime(0, 10) }),
    check({ id: '3', canary_name: 'db', labels: { env: 'dev' }, status: 'healthy', uptime: uptime(10, 0) }),
    check({ id: '4', canary_name: 'db', labels: {}, status: 'healthy', uptime: uptime(10, 0) }),
  ];

  it('puts pivotBy values in rows and pivotLabel values in columns, missing values last', () => {
    const pivot = buildPivot(checks, 'canary_name', 'env');
    expect(pivot.rows).toEqual(['db', 'web']);
    expect(pivot.columns).toEqual(['dev', 'prod', '(none)']);
    expect(pivot.cell('web', 'prod')?.map((c) => c.id)).toEqual(['1', '2']);
    expect(pivot.cell('web', 'dev')).toBeUndefined();
    expect(buildPivot(checks, 'namespace', undefined).columns).toEqual(['All']);
  });

  it('sums a cell up as health, uptime or the slowest latency', () => {
    const cell = buildPivot(checks, 'canary_name', 'env').cell('web', 'prod') ?? [];
    expect(summarisePivotCell(cell, 'health')).toEqual({ tone: 'mixed', text: '2' });
    expect(summarisePivotCell(cell, 'uptime')).toEqual({ tone: 'mixed', text: '45.0%' });
    expect(summarisePivotCell([check({ latency: { p50: 1, p95: 1200, p97: 1, p99: 1, rolling1h: 1 } }), check()], 'latency').text).toBe('1.2s');
  });
});

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
