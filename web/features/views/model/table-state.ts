import type { ViewColumn } from '../api/schema';

/**
 * The view table's state: one sorted column, filters per column, the page. On a view page it lives in
 * the URL (`sortBy`, `sortOrder`, `page` from 1, `filter-<column>` — repeated for a multiselect); an
 * embedded view keeps it in memory, so two tables on one page do not share it.
 */
export interface TableState {
  sort: { id: string; desc: boolean } | null;
  /** Column → values: one text (contains) for a text filter, the picked values for a multiselect. */
  filters: Record<string, string[]>;
  pageIndex: number;
}

export const EMPTY_TABLE_STATE: TableState = { sort: null, filters: {}, pageIndex: 0 };
const FILTER_PREFIX = 'filter-';

/** A view's default order (display.table.sort, as its answer gives it). */
export type DefaultSort = { column: string; desc: boolean } | null | undefined;

/** The table's state before the user sorts, filters or pages: the view's default order. */
export function initialTableState(defaultSort: DefaultSort): TableState {
  return defaultSort ? { ...EMPTY_TABLE_STATE, sort: { id: defaultSort.column, desc: defaultSort.desc } } : EMPTY_TABLE_STATE;
}

/** The state in the URL; without `sortBy` the view's default order applies. */
export function readTableState(params: URLSearchParams, columns: readonly Pick<ViewColumn, 'name'>[], defaultSort?: DefaultSort): TableState {
  const names = new Set(columns.map((c) => c.name));
  const sortBy = params.get('sortBy');
  const fallback = defaultSort && names.has(defaultSort.column) ? { id: defaultSort.column, desc: defaultSort.desc } : null;
  const sort = sortBy && names.has(sortBy) ? { id: sortBy, desc: params.get('sortOrder') === 'desc' } : fallback;
  const filters: Record<string, string[]> = {};
  for (const name of names) {
    const values = params.getAll(`${FILTER_PREFIX}${name}`).filter((v) => v !== '');
    if (values.length > 0) filters[name] = values;
  }
  const page = Number(params.get('page') ?? '1');
  const pageIndex = Number.isInteger(page) && page > 1 ? page - 1 : 0;
  return { sort, filters, pageIndex };
}

export function writeTableState(params: URLSearchParams, state: TableState): URLSearchParams {
  const next = new URLSearchParams();
  for (const [key, value] of params) {
    if (key === 'sortBy' || key === 'sortOrder' || key === 'page' || key.startsWith(FILTER_PREFIX)) continue;
    next.append(key, value);
  }
  if (state.sort) {
    next.set('sortBy', state.sort.id);
    next.set('sortOrder', state.sort.desc ? 'desc' : 'asc');
  }
  for (const [name, values] of Object.entries(state.filters)) for (const value of values) if (value !== '') next.append(`${FILTER_PREFIX}${name}`, value);
  if (state.pageIndex > 0) next.set('page', String(state.pageIndex + 1));
  return next;
}

/** Column types whose stored value is text, so 'contains' (ilike) applies. */
const TEXT_TYPES = new Set(['string', 'status', 'health', 'url', 'config_item', 'badge']);

export type ColumnFilterKind = 'multiselect' | 'text' | 'none';

export function filterKind(column: Pick<ViewColumn, 'type' | 'filter'>): ColumnFilterKind {
  if (column.filter) return 'multiselect';
  return TEXT_TYPES.has(column.type) ? 'text' : 'none';
}

/** The state in which the answer's own first page of rows (default order, no filter, page 1) is the page asked. */
export function isAnswerPage(state: TableState, defaultSort: DefaultSort, columns: readonly Pick<ViewColumn, 'primaryKey'>[]): boolean {
  if (state.pageIndex !== 0 || Object.values(state.filters).some((values) => values.length > 0)) return false;
  // Without a primary key the server and /api/db may break ties differently.
  if (!columns.some((c) => c.primaryKey)) return false;
  if (!defaultSort) return state.sort === null;
  return state.sort !== null && state.sort.id === defaultSort.column && state.sort.desc === defaultSort.desc;
}

/** LIKE's own characters in a typed text are matched literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The order of a page: the sorted column, then the primary key (so pages are stable), else the first column. */
export function orderOf(state: TableState, columns: readonly Pick<ViewColumn, 'name' | 'primaryKey'>[]): Array<{ column: string; ascending: boolean }> {
  const order: Array<{ column: string; ascending: boolean }> = [];
  if (state.sort) order.push({ column: state.sort.id, ascending: !state.sort.desc });
  const keys = columns.filter((c) => c.primaryKey).map((c) => c.name);
  const tiebreak = keys.length > 0 ? keys : columns.slice(0, 1).map((c) => c.name);
  for (const key of tiebreak) if (!order.some((o) => o.column === key)) order.push({ column: key, ascending: true });
  return order;
}
