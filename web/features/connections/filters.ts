import { PAGE_SIZES, DEFAULT_PAGE_SIZE } from '@common/constants';
import { patchSearchParams, pickOption, readInteger, readSearchParams } from '@web/lib/url-state';

export const CONNECTION_SORT_COLUMNS = ['name', 'namespace', 'type', 'created_at', 'updated_at'] as const;
export type ConnectionSortColumn = (typeof CONNECTION_SORT_COLUMNS)[number];

/** The Connections list's view state, all of it in the URL (DESIGN §7). */
export interface ConnectionFilters {
  /** Name or URL contains this. */
  search: string;
  /** One connection type, or '' for all. */
  type: string;
  sortBy: ConnectionSortColumn;
  sortOrder: 'asc' | 'desc';
  pageIndex: number;
  /** Undefined: the size the person last chose for tables (spec §9: persisted locally). */
  pageSize: number | undefined;
}

const URL_DEFAULTS: Record<string, string> = { sortBy: 'name', sortOrder: 'asc', pageIndex: '0' };

export function parseConnectionFilters(params: URLSearchParams): ConnectionFilters {
  const p = readSearchParams(params);
  const size = readInteger(p.pageSize, DEFAULT_PAGE_SIZE, { min: 1, max: 1000 });
  return {
    search: p.q ?? '',
    type: p.type ?? '',
    sortBy: pickOption(p.sortBy, CONNECTION_SORT_COLUMNS, 'name'),
    sortOrder: p.sortOrder === 'desc' ? 'desc' : 'asc',
    pageIndex: readInteger(p.pageIndex, 0),
    pageSize: p.pageSize !== undefined && PAGE_SIZES.some((allowed) => allowed === size) ? size : undefined,
  };
}

export type ConnectionsPatch = Partial<Record<'q' | 'type' | 'sortBy' | 'sortOrder' | 'pageIndex' | 'pageSize', string | undefined>>;

/** A new search, type or sort starts at the first page; paging keeps the rest. */
export function applyConnectionsChange(params: URLSearchParams, patch: ConnectionsPatch): URLSearchParams {
  const resetsPage = 'q' in patch || 'type' in patch || 'sortBy' in patch || 'sortOrder' in patch;
  return patchSearchParams(params, resetsPage ? { ...patch, pageIndex: undefined } : patch, URL_DEFAULTS);
}
