import { describe, expect, it } from 'vitest';
import { containsPattern, filterKind, orderOf, readTableState, writeTableState } from './table-state';

const columns = [
  { name: 'name', type: 'string', primaryKey: true },
  { name: 'health', type: 'health', filter: { type: 'multiselect' } },
  { name: 'cpu', type: 'gauge' },
];

describe('view table state', () => {
  it('round-trips sort, filters (repeated for a multiselect) and page through the URL, ignoring unknown columns', () => {
    const state = { sort: { id: 'cpu', desc: true }, filters: { health: ['healthy', 'warning'], name: ['api'] }, pageIndex: 2 };
    const params = writeTableState(new URLSearchParams('var-cluster=a&filter-old=x'), state);
    expect(params.getAll('filter-health')).toEqual(['healthy', 'warning']);
    expect(params.get('var-cluster')).toBe('a');
    expect(params.get('page')).toBe('3');
    expect(readTableState(params, columns)).toEqual(state);
    expect(readTableState(new URLSearchParams('sortBy=nope&page=0'), columns)).toEqual({ sort: null, filters: {}, pageIndex: 0 });
  });

  it('filters text columns by contains, columns with `filter` by their values, and others not at all', () => {
    expect(filterKind({ type: 'string', filter: null })).toBe('text');
    expect(filterKind({ type: 'number', filter: { type: 'multiselect' } })).toBe('multiselect');
    expect(filterKind({ type: 'gauge', filter: null })).toBe('none');
    expect(containsPattern('50%_a\\')).toBe('%50\\%\\_a\\\\%');
  });

  it('orders by the sorted column, then the primary key, so pages are stable', () => {
    expect(orderOf({ sort: { id: 'cpu', desc: true }, filters: {}, pageIndex: 0 }, columns)).toEqual([
      { column: 'cpu', ascending: false },
      { column: 'name', ascending: true },
    ]);
    expect(orderOf({ sort: null, filters: {}, pageIndex: 0 }, [{ name: 'a' }, { name: 'b' }])).toEqual([{ column: 'a', ascending: true }]);
  });
});
