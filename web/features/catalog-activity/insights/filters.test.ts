import { PostgrestClient } from '@supabase/postgrest-js';
import { describe, expect, it, vi } from 'vitest';
import { applyInsightsFilter, applyInsightsView, parseInsightsFilters } from './filters';
import { buildInsightsQuery } from './query';

const parse = (query: string) => parseInsightsFilters(new URLSearchParams(query));

describe('insights in the URL', () => {
  it('defaults to open insights, last seen first, pages of 50', () => {
    expect(parse('')).toEqual({
      analyzer: undefined,
      analysisType: undefined,
      severity: undefined,
      status: 'open',
      configType: undefined,
      sortBy: 'last_observed',
      sortOrder: 'desc',
      pageIndex: 0,
      pageSize: 50,
      insight: undefined,
    });
  });

  it('reads every filter and falls back on unknown values', () => {
    expect(parse('analyzer=privileged&analysisType=security&severity=critical&status=all&configType=Kubernetes::Pod&sortBy=analyzer&sortOrder=asc&pageIndex=1&insight=a1')).toMatchObject({
      analyzer: 'privileged',
      analysisType: 'security',
      severity: 'critical',
      status: 'all',
      configType: 'Kubernetes::Pod',
      sortBy: 'analyzer',
      sortOrder: 'asc',
      pageIndex: 1,
      insight: 'a1',
    });
    expect(parse('status=gone&sortBy=message&severity=odd')).toMatchObject({ status: 'open', sortBy: 'last_observed', severity: undefined });
    expect(Object.keys(parse('__proto__=x&constructor=y'))).not.toContain('constructor');
  });

  it('starts a filter change at the first page and keeps defaults out of the URL', () => {
    expect(Object.fromEntries(applyInsightsFilter(new URLSearchParams('pageIndex=3&severity=high'), { status: 'open', analyzer: 'x' }))).toEqual({ severity: 'high', analyzer: 'x' });
    expect(Object.fromEntries(applyInsightsView(new URLSearchParams('status=all'), { insight: 'a1', pageIndex: '0' }))).toEqual({ status: 'all', insight: 'a1' });
  });
});

describe('buildInsightsQuery', () => {
  async function requestOf(query: string, includeDeleted = false) {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response('[]', { status: 200, headers: { 'content-range': '*/0' } }));
    const client = new PostgrestClient('http://db.test', { fetch });
    const { insight: _insight, ...filters } = parse(query);
    await buildInsightsQuery(client, filters, includeDeleted);
    const [input, init] = fetch.mock.calls[0] ?? [];
    const url = new URL(String(input));
    return { params: [...url.searchParams.entries()], path: url.pathname, headers: new Headers(init?.headers) };
  }

  it('asks for one page of open insights of live configs with an exact count', async () => {
    const { params, path, headers } = await requestOf('');
    expect(path).toBe('/config_analysis_items');
    expect(headers.get('prefer')).toContain('count=exact');
    expect(params).toEqual([
      ['select', expect.stringContaining('config_name')],
      ['status', 'eq.open'],
      ['config_deleted_at', 'is.null'],
      ['order', 'last_observed.desc.nullslast,id.asc'],
      ['offset', '0'],
      ['limit', '50'],
    ]);
  });

  it('turns each filter into a bound parameter', async () => {
    const { params } = await requestOf('analyzer=a,b&analysisType=security&severity=high&status=all&configType=App&sortBy=analyzer&sortOrder=asc&pageIndex=2', true);
    expect(params).toEqual([
      ['select', expect.any(String)],
      ['analyzer', 'eq.a,b'],
      ['analysis_type', 'eq.security'],
      ['severity', 'eq.high'],
      ['config_type', 'eq.App'],
      ['order', 'analyzer.asc.nullslast,last_observed.desc,id.asc'],
      ['offset', '100'],
      ['limit', '50'],
    ]);
  });
});
