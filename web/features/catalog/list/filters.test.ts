import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  applyFilterChange,
  applyViewChange,
  clearFilters,
  formatValueFilter,
  parseCatalogFilters,
  parseValueFilter,
  toSummary,
  valueState,
  withValueState,
} from './filters';

const parse = (query: string) => parseCatalogFilters(new URLSearchParams(query));

describe('parseCatalogFilters', () => {
  it('starts on the summary by type, sorted by name, first page of 50', () => {
    expect(parse('')).toEqual({
      view: 'summary',
      type: undefined,
      groupBy: 'type',
      health: { include: [], exclude: [] },
      status: { include: [], exclude: [] },
      tags: [],
      labels: [],
      search: '',
      showDeleted: undefined,
      sortBy: 'name',
      sortOrder: 'asc',
      pageIndex: 0,
      pageSize: 50,
    });
  });

  it('lists the items of a type, or of every type with view=list', () => {
    expect(parse('type=Kubernetes::Pod')).toMatchObject({ view: 'list', type: 'Kubernetes::Pod' });
    expect(parse('view=list')).toMatchObject({ view: 'list', type: undefined });
  });

  it('reads every filter, sort and page from the URL', () => {
    const filters = parse(
      'type=Car&health=unhealthy,!healthy&status=Running&tags=namespace=shop:1,env=dev:-1&labels=app=web:1&search=%20web%20&showDeleted=yes&sortBy=updated_at&sortOrder=desc&pageIndex=2&pageSize=100',
    );
    expect(filters).toMatchObject({
      health: { include: ['unhealthy'], exclude: ['healthy'] },
      status: { include: ['Running'], exclude: [] },
      tags: [
        { key: 'namespace', value: 'shop', state: 1 },
        { key: 'env', value: 'dev', state: -1 },
      ],
      labels: [{ key: 'app', value: 'web', state: 1 }],
      search: 'web',
      showDeleted: true,
      sortBy: 'updated_at',
      sortOrder: 'desc',
      pageIndex: 2,
      pageSize: 100,
    });
    expect(parse('showDeleted=no').showDeleted).toBe(false);
  });

  it('falls back on unknown sorts, bad pages and page sizes outside spec §9, and ignores __proto__', () => {
    expect(parse('sortBy=password&pageIndex=-1&pageSize=7')).toMatchObject({ sortBy: 'name', pageIndex: 0, pageSize: 50 });
    expect(parseCatalogFilters(new URLSearchParams(''), 100).pageSize).toBe(100);
    const filters = parse('__proto__=x&constructor=y&tags=__proto__=a:1');
    expect(filters.tags).toEqual([]);
    expect(Object.getPrototypeOf(filters)).toBe(Object.prototype);
  });
});

describe('value filters (health, status)', () => {
  it('round-trips include and exclude, dropping blanks and repeats', () => {
    const filter = parseValueFilter('a, ,b,!c,a,!');
    expect(filter).toEqual({ include: ['a', 'b'], exclude: ['c'] });
    expect(formatValueFilter(filter)).toBe('a,b,!c');
    expect(formatValueFilter({ include: [], exclude: [] })).toBeUndefined();
  });

  it('sets one value to include, exclude or neither (spec §4 tri-state)', () => {
    let filter = withValueState({ include: [], exclude: [] }, 'healthy', 1);
    expect(valueState(filter, 'healthy')).toBe(1);
    filter = withValueState(filter, 'healthy', -1);
    expect(filter).toEqual({ include: [], exclude: ['healthy'] });
    expect(valueState(filter, 'healthy')).toBe(-1);
    expect(withValueState(filter, 'healthy', 0)).toEqual({ include: [], exclude: [] });
  });
});

describe('URL changes', () => {
  it('writes a filter and goes back to the first page, keeping the others', () => {
    const next = applyFilterChange(new URLSearchParams('type=Car&pageIndex=3&sortBy=type'), { health: { include: ['unhealthy'], exclude: [] } });
    expect(next.toString()).toBe('type=Car&sortBy=type&health=unhealthy');
  });

  it('writes tags in the label filter format and drops emptied filters', () => {
    const withTag = applyFilterChange(new URLSearchParams(), { tags: [{ key: 'namespace', value: 'shop', state: 1 }] });
    expect(withTag.get('tags')).toBe('namespace=shop:1');
    expect(applyFilterChange(withTag, { tags: [] }).has('tags')).toBe(false);
    expect(applyFilterChange(new URLSearchParams('type=Car'), { type: null }).has('type')).toBe(false);
    expect(applyFilterChange(new URLSearchParams(), { search: '  pod ' }).get('search')).toBe('pod');
    expect(applyFilterChange(new URLSearchParams(), { showDeleted: false }).get('showDeleted')).toBe('no');
  });

  it('leaves defaults out of the URL', () => {
    const next = applyViewChange(new URLSearchParams('groupBy=cluster&pageIndex=2'), { groupBy: 'type', sortBy: 'name', sortOrder: 'asc', pageIndex: 0 });
    expect(next.toString()).toBe('');
    expect(applyViewChange(new URLSearchParams(), { view: 'list', pageSize: 100 }).toString()).toBe('view=list&pageSize=100');
  });

  it('goes back to the summary keeping the filters, and clears the filters keeping the type', () => {
    const params = new URLSearchParams('type=Car&view=list&health=unhealthy&sortBy=type&pageIndex=1&search=x');
    expect(toSummary(params).toString()).toBe('health=unhealthy&search=x');
    expect(clearFilters(params).toString()).toBe('type=Car&view=list&sortBy=type');
    expect(activeFilterCount(parse(params.toString()))).toBe(2);
  });
});
