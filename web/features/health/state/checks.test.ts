import { describe, expect, it } from 'vitest';
import { check } from '../test-fixtures';
import { ALL_TAB, displayName, groupByOptions, groupKeyFn, groupTone, groupUptime, showsLastRunAge, statusDotColour, tabByOptions, tabsFor } from './checks';

describe('checks', () => {
  it('falls back from name to description to endpoint for the display name (spec §3)', () => {
    expect(displayName(check({ name: 'api' }))).toBe('api');
    expect(displayName(check({ name: '', description: 'the api' }))).toBe('the api');
    expect(displayName(check({ name: ' ', description: null, endpoint: 'db:5432' }))).toBe('db:5432');
  });

  it('groups by canary, by the name before "/", by description, by type, or by a label', () => {
    expect(groupKeyFn('no-group')).toBeNull();
    expect(groupKeyFn('canary_name')?.(check({ canary_name: 'db' }))).toBe('db');
    const byName = groupKeyFn('name');
    expect(byName?.(check({ name: 'disk/usage' }))).toBe('disk');
    expect(byName?.(check({ name: 'plain' }))).toBe('plain');
    expect(byName?.(check({ name: '/leading' }))).toBe('/leading');
    expect(groupKeyFn('description')?.(check({ description: null }))).toBe('(none)');
    expect(groupKeyFn('type')?.(check({ type: 'exec' }))).toBe('exec');
    const byTeam = groupKeyFn('team');
    expect(byTeam?.(check({ labels: { team: 'web' } }))).toBe('web');
    expect(byTeam?.(check({ labels: {} }))).toBe('(none)');
    expect(groupKeyFn('toString')?.(check())).toBe('(none)');
  });

  it('gives a group with healthy and unhealthy checks the mixed (orange) health', () => {
    expect(groupTone([check({ status: 'healthy' }), check({ status: 'unhealthy' })])).toBe('mixed');
    expect(statusDotColour(groupTone([check({ status: 'healthy' }), check({ status: 'unhealthy' })]))).toBe('orange');
    expect(groupTone([check({ status: 'healthy' }), check({ status: null })])).toBe('healthy');
    expect(groupTone([check({ status: 'unhealthy' })])).toBe('unhealthy');
    expect(groupTone([check({ status: null })])).toBe('unknown');
  });

  it('colours status dots as spec §4 says', () => {
    for (const status of ['degraded', 'missing', 'unhealthy']) expect(statusDotColour(status)).toBe('red');
    for (const status of ['unknown', 'suspended', null]) expect(statusDotColour(status)).toBe('gray');
    for (const status of ['warning', 'warn', 'mixed']) expect(statusDotColour(status)).toBe('orange');
    expect(statusDotColour('healthy')).toBe('green');
  });

  it('counts a group’s fully passing checks', () => {
    const group = [
      check({ uptime: { passed: 10, failed: 0, last_pass: null, last_fail: null } }),
      check({ uptime: { passed: 9, failed: 1, last_pass: null, last_fail: null } }),
      check({ uptime: { passed: 0, failed: 0, last_pass: null, last_fail: null } }),
    ];
    expect(groupUptime(group)).toEqual({ passing: 1, total: 3 });
  });

  it('shows the last run age only between 1 hour and 7 days (spec §4, §9)', () => {
    const now = Date.parse('2024-06-10T12:00:00Z');
    const ago = (ms: number) => new Date(now - ms).toISOString();
    expect(showsLastRunAge(null, now)).toBe(false);
    expect(showsLastRunAge(ago(59 * 60_000), now)).toBe(false);
    expect(showsLastRunAge(ago(3_600_000), now)).toBe(true);
    expect(showsLastRunAge(ago(604_800_000), now)).toBe(true);
    expect(showsLastRunAge(ago(604_800_001), now)).toBe(false);
  });

  it("builds tabs with 'All' first (spec §9), agents by name", () => {
    const checks = [check({ namespace: 'b' }), check({ namespace: 'a' }), check({ namespace: 'a', agent_id: 'ag1', labels: { team: 'web' } })];
    expect(tabsFor('namespace', checks).map((tab) => tab.label)).toEqual(['All', 'a', 'b']);
    expect(tabsFor('agent_id', checks, new Map([['ag1', 'edge']])).map((tab) => tab.label)).toEqual(['All', 'edge', 'local']);
    expect(tabsFor('team', checks)).toEqual([ALL_TAB, { value: 'web', label: 'web' }]);
  });

  it('offers the spec §9 Group By and Tab By options plus every label key', () => {
    expect(groupByOptions(['team', 'type'])).toEqual(['no-group', 'canary_name', 'name', 'description', 'type', 'team']);
    expect(tabByOptions(['team', 'namespace'])).toEqual(['namespace', 'agent_id', 'team']);
  });
});
