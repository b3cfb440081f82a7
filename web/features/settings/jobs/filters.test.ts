import { PostgrestClient } from '@supabase/postgrest-js';
import { describe, expect, it, vi } from 'vitest';
import { QUICK_RANGES, relativeRange } from '@web/ui/time-range';
import { applyFilterChange, applyTimeRangeChange, applyViewChange, parseJobsFilters } from './filters';
import { agentHref, resourceHref } from './links';
import { buildJobsQuery } from './query';

const parse = (query: string) => parseJobsFilters(new URLSearchParams(query));

describe('parseJobsFilters', () => {
  it('applies the spec §9 defaults: last 2 days, SUCCESS, refresh None, 150 rows', () => {
    expect(parse('')).toEqual({
      name: undefined,
      resourceType: undefined,
      status: 'SUCCESS',
      duration: 'none',
      timeRange: relativeRange('2d'),
      refresh: 'None',
      sortBy: 'time_start',
      sortOrder: 'desc',
      pageIndex: 0,
      pageSize: 150,
      details: undefined,
    });
  });
  it('reads every filter and falls back on unknown values', () => {
    const filters = parse('name=sync&resourceType=canary&status=FAILED&duration=5m&range=7d&sortBy=duration_millis&sortOrder=asc&pageIndex=3&pageSize=50&details=abc');
    expect(filters).toMatchObject({ name: 'sync', resourceType: 'canary', status: 'FAILED', duration: '5m', sortBy: 'duration_millis', sortOrder: 'asc', pageIndex: 3, pageSize: 50, details: 'abc' });
    expect(filters.timeRange).toEqual(relativeRange('7d'));
    expect(parse('status=BOGUS&duration=7m&sortBy=password&pageIndex=-2&refresh=1ms')).toMatchObject({
      status: 'SUCCESS',
      duration: 'none',
      sortBy: 'time_start',
      pageIndex: 0,
      refresh: 'None',
    });
    expect(parse('status=all').status).toBe('all');
  });
  it('ignores __proto__ and constructor in the URL', () => {
    const filters = parse('__proto__[status]=FAILED&constructor=x&__proto__=y');
    expect(filters.status).toBe('SUCCESS');
    expect(Object.keys(filters)).not.toContain('constructor');
  });
});

describe('URL changes', () => {
  it('resets pageIndex and pageSize on a filter change, and drops defaults', () => {
    const next = applyFilterChange(new URLSearchParams('pageIndex=4&pageSize=50&status=FAILED&sortBy=name'), { status: 'SUCCESS', name: 'sync' });
    expect(Object.fromEntries(next)).toEqual({ sortBy: 'name', name: 'sync' });
  });
  it('writes a time range and resets paging', () => {
    const next = applyTimeRangeChange(new URLSearchParams('range=2d&pageIndex=2'), QUICK_RANGES[0]!);
    expect(Object.fromEntries(next)).toEqual({ from: 'now-1d/d', to: 'now-1d/d' });
  });
  it('keeps filters when paging or sorting', () => {
    const next = applyViewChange(new URLSearchParams('status=FAILED'), { pageIndex: '2', sortBy: 'name', sortOrder: 'asc' });
    expect(Object.fromEntries(next)).toEqual({ status: 'FAILED', pageIndex: '2', sortBy: 'name', sortOrder: 'asc' });
  });
});

describe('buildJobsQuery', () => {
  async function requestOf(query: string) {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response('[]', { status: 200, headers: { 'content-range': '*/0' } }));
    const client = new PostgrestClient('http://db.test', { fetch });
    await buildJobsQuery(client, parse(query), new Date('2024-05-15T12:00:00Z'));
    const [input, init] = fetch.mock.calls[0] ?? [];
    const url = new URL(String(input));
    return { params: [...url.searchParams.entries()], path: url.pathname, headers: new Headers(init?.headers) };
  }
  it('asks for one page of the default filters with an exact count', async () => {
    const { params, path, headers } = await requestOf('');
    expect(path).toBe('/job_histories');
    expect(headers.get('prefer')).toContain('count=exact');
    expect(params).toEqual([
      ['select', expect.stringContaining('agent')],
      ['status', 'eq.SUCCESS'],
      ['time_start', 'gte.2024-05-13T12:00:00.000Z'],
      ['time_start', 'lte.2024-05-15T12:00:00.000Z'],
      ['order', 'time_start.desc.nullslast'],
      ['offset', '0'],
      ['limit', '150'],
    ]);
  });
  it('turns each filter into a bound parameter', async () => {
    const { params } = await requestOf('name=a,b&resourceType=canary&status=all&duration=1m&sortBy=name&sortOrder=asc&pageIndex=2&pageSize=50&from=2024-01-01T00:00:00.000Z&to=2024-01-02T00:00:00.000Z');
    expect(params).toEqual([
      ['select', expect.any(String)],
      ['name', 'eq.a,b'],
      ['resource_type', 'eq.canary'],
      ['duration_millis', 'gte.60000'],
      ['time_start', 'gte.2024-01-01T00:00:00.000Z'],
      ['time_start', 'lte.2024-01-02T00:00:00.000Z'],
      ['order', 'name.asc.nullslast'],
      ['offset', '100'],
      ['limit', '50'],
    ]);
  });
});

describe('links', () => {
  const everyPage = () => true;
  it('links resources by type as spec §2 says', () => {
    expect(resourceHref('canary', 'c1', everyPage)).toBe('/settings/canaries/c1');
    expect(resourceHref('config_scraper', 's1', everyPage)).toBe('/catalog/scrapers/s1');
    expect(resourceHref('catalog_scraper', 's2', everyPage)).toBe('/catalog/scrapers/s2');
    expect(resourceHref('topology', 't1', everyPage)).toBe('/settings/topologies/t1');
    expect(resourceHref('config', 'x1', everyPage)).toBe('/catalog/x1');
    expect(resourceHref('playbook', 'p1', everyPage)).toBe('/playbooks/p1');
    expect(resourceHref('unknown', 'u', everyPage)).toBeUndefined();
    expect(resourceHref('toString', 'u', everyPage)).toBeUndefined();
    expect(resourceHref('canary', null, everyPage)).toBeUndefined();
    expect(agentHref('a1', everyPage)).toBe('/settings/agents?id=a1');
  });

  it('links to the pages this build has, and not to the others', () => {
    // Health checks and topologies are registered settings resources, the catalog and its scrapers have
    // pages, playbooks and agents included.
    expect(resourceHref('canary', 'c1')).toBe('/settings/canaries/c1');
    expect(resourceHref('config', 'x1')).toBe('/catalog/x1');
    expect(resourceHref('config_scraper', 's1')).toBe('/catalog/scrapers/s1');
    expect(resourceHref('topology', 't1')).toBe('/settings/topologies/t1');
    expect(resourceHref('playbook', 'p1')).toBe('/playbooks/p1');
    expect(agentHref('a1')).toBe('/settings/agents?id=a1');
    expect(agentHref('a1', () => false)).toBeUndefined();
  });
});
