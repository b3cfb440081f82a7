import { describe, expect, it, vi } from 'vitest';
import { QUICK_RANGES, relativeRange } from '@web/ui/time-range';
import { activeFilterCount, applyChangesFilter, applyChangesTimeRange, applyChangesView, formatTags, parseChangesFilters, parseTags, withTag } from './filters';
import { buildChangesRequest } from './request';
import { diffLineKind } from './diff-view';

const parse = (query: string) => parseChangesFilters(new URLSearchParams(query));
const NOW = new Date('2024-05-15T12:00:00Z');

describe('the feed in the URL', () => {
  it('defaults to the last 7 days, newest first, pages of 50, this config alone', () => {
    expect(parse('')).toEqual({
      changeType: undefined,
      severity: undefined,
      source: undefined,
      configType: undefined,
      tags: {},
      timeRange: relativeRange('7d'),
      sortBy: 'created_at',
      sortOrder: 'desc',
      pageIndex: 0,
      pageSize: 50,
      change: undefined,
      recursive: 'none',
      depth: 5,
    });
  });

  it('reads every filter and falls back on unknown values', () => {
    const filters = parse('changeType=diff&severity=high&source=kubernetes*&configType=Kubernetes::Pod&tags=env%3Dprod,team%3Dweb&range=2d&sortBy=count&sortOrder=asc&pageIndex=3&pageSize=100&change=c1&recursive=down&depth=3');
    expect(filters).toMatchObject({
      changeType: 'diff',
      severity: 'high',
      source: 'kubernetes*',
      configType: 'Kubernetes::Pod',
      tags: { env: 'prod', team: 'web' },
      sortBy: 'count',
      sortOrder: 'asc',
      pageIndex: 3,
      pageSize: 100,
      change: 'c1',
      recursive: 'down',
      depth: 3,
    });
    expect(filters.timeRange).toEqual(relativeRange('2d'));
    expect(activeFilterCount(filters)).toBe(6);
    expect(parse('severity=huge&sortBy=password&recursive=sideways&depth=11&pageIndex=-1')).toMatchObject({ severity: undefined, sortBy: 'created_at', recursive: 'none', depth: 5, pageIndex: 0 });
  });

  it('ignores __proto__ and constructor, in the URL and in tags', () => {
    const filters = parse('__proto__[severity]=high&constructor=x&tags=__proto__%3Dx,constructor%3Dy,ok%3D1');
    expect(filters.severity).toBeUndefined();
    expect(filters.tags).toEqual({ ok: '1' });
    expect(Object.getPrototypeOf(filters.tags)).toBe(Object.prototype);
  });

  it('writes tags in one order, and adds and removes them', () => {
    expect(parseTags('b=2, a=1,=x,novalue')).toEqual({ b: '2', a: '1' });
    expect(formatTags({ b: '2', a: '1' })).toBe('a=1,b=2');
    expect(formatTags({})).toBeUndefined();
    expect(withTag({ a: '1' }, 'b', '2')).toBe('a=1,b=2');
    expect(withTag({ a: '1' }, 'a', undefined)).toBeUndefined();
  });

  it('starts a filter change at the first page with no diff open, and drops defaults', () => {
    const next = applyChangesFilter(new URLSearchParams('pageIndex=4&change=c1&sortBy=count&recursive=down'), { changeType: 'diff', recursive: 'none', depth: '5' });
    expect(Object.fromEntries(next)).toEqual({ sortBy: 'count', changeType: 'diff' });
    expect(Object.fromEntries(applyChangesTimeRange(new URLSearchParams('range=2d&pageIndex=2'), QUICK_RANGES[0]!))).toEqual({ from: 'now-1d/d', to: 'now-1d/d' });
  });

  it('keeps the filters when paging, sorting or opening a row', () => {
    const next = applyChangesView(new URLSearchParams('severity=high'), { pageIndex: '2', change: 'c2', sortBy: 'created_at', sortOrder: 'desc' });
    expect(Object.fromEntries(next)).toEqual({ severity: 'high', pageIndex: '2', change: 'c2' });
  });
});

describe('the request of POST /api/catalog/changes', () => {
  it('asks for one page of every config, newest first, over the resolved range', () => {
    const { change: _change, ...filters } = parse('');
    expect(buildChangesRequest(filters, { includeDeleted: false }, NOW)).toEqual({
      sort_by: '-created_at',
      page: 1,
      page_size: 50,
      from: '2024-05-08T12:00:00.000Z',
      to: '2024-05-15T12:00:00.000Z',
    });
  });

  it('sends each filter, and one config with its relationships', () => {
    const { change: _change, ...filters } = parse('changeType=diff,!Pulled&severity=low&source=k8s&configType=App&tags=env%3Dprod&sortBy=severity&sortOrder=asc&pageIndex=2&pageSize=100&recursive=all&depth=2');
    expect(buildChangesRequest(filters, { configId: 'c1', includeDeleted: true }, NOW)).toEqual({
      id: 'c1',
      recursive: 'all',
      depth: 2,
      type: 'diff,!Pulled',
      severity: 'low',
      source: 'k8s',
      config_type: 'App',
      tags: { env: 'prod' },
      include_deleted_configs: true,
      sort_by: 'severity',
      page: 3,
      page_size: 100,
      from: '2024-05-08T12:00:00.000Z',
      to: '2024-05-15T12:00:00.000Z',
    });
    const { change: _open, ...alone } = parse('recursive=none&depth=3');
    expect(buildChangesRequest(alone, { configId: 'c1', includeDeleted: false }, NOW)).toMatchObject({ id: 'c1', recursive: 'none' });
    expect(buildChangesRequest(alone, { configId: 'c1', includeDeleted: false }, NOW)).not.toHaveProperty('depth');
  });

  it('leaves the time out when a mapped range does not evaluate (logged)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { change: _change, ...filters } = parse('');
    const broken = { ...filters, timeRange: { type: 'mapped' as const, display: 'x', from: 'now-nonsense', to: 'now' } };
    expect(buildChangesRequest(broken, { includeDeleted: false }, NOW)).not.toHaveProperty('from');
    warn.mockRestore();
  });
});

describe('diff lines', () => {
  it('tells additions, removals, hunks and headers apart', () => {
    expect(['--- a', '+++ b', '@@ -1 +1 @@', '-replicas: 1', '+replicas: 2', ' kind: x', ''].map(diffLineKind)).toEqual(['header', 'header', 'hunk', 'remove', 'add', 'context', 'context']);
  });
});
