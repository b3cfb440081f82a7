import { describe, expect, it } from 'vitest';
import { containsPattern, filterKind, initialTableState, isAnswerPage, orderOf, readTableState, writeTableState } from './table-state';

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

  it("starts in the view's default order (display.table.sort) until the URL names another", () => {
    const byCpu = { column: 'cpu', desc: true };
    expect(readTableState(new URLSearchParams(''), columns, byCpu).sort).toEqual({ id: 'cpu', desc: true });
    expect(readTableState(new URLSearchParams('sortBy=name&sortOrder=asc'), columns, byCpu).sort).toEqual({ id: 'name', desc: false });
    expect(readTableState(new URLSearchParams(''), columns, { column: 'gone', desc: false }).sort).toBeNull();
    expect(initialTableState(byCpu)).toEqual({ sort: { id: 'cpu', desc: true }, filters: {}, pageIndex: 0 });
  });

  it("reuses the answer's own rows only for the page the server read: default order, no filter, page 1, a primary key", () => {
    const byCpu = { column: 'cpu', desc: true };
    expect(isAnswerPage(initialTableState(byCpu), byCpu, columns)).toBe(true);
    expect(isAnswerPage(initialTableState(null), null, columns)).toBe(true);
    expect(isAnswerPage({ ...initialTableState(byCpu), pageIndex: 1 }, byCpu, columns)).toBe(false);
    expect(isAnswerPage({ ...initialTableState(byCpu), filters: { health: ['healthy'] } }, byCpu, columns)).toBe(false);
    expect(isAnswerPage({ sort: { id: 'cpu', desc: false }, filters: {}, pageIndex: 0 }, byCpu, columns)).toBe(false);
    expect(isAnswerPage(initialTableState(null), null, [{ primaryKey: false }])).toBe(false);
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
