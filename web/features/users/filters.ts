import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@common/constants';
import { patchSearchParams, pickOption, readInteger, readSearchParams } from '@web/lib/url-state';

export const USER_SORT_COLUMNS = ['name', 'email', 'state', 'last_login', 'created_at'] as const;
export type UserSortColumn = (typeof USER_SORT_COLUMNS)[number];

/** The Users page's view state, all of it in the URL (STYLE: the URL holds the view's state). */
export interface UsersFilters {
  /** Name or email contains this. */
  search: string;
  sortBy: UserSortColumn;
  sortOrder: 'asc' | 'desc';
  pageIndex: number;
  /** Undefined: the size the person last chose for tables (spec §9: persisted locally). */
  pageSize: number | undefined;
  /** The Invite user dialog is open. */
  invite: boolean;
}

const URL_DEFAULTS: Record<string, string> = { sortBy: 'name', sortOrder: 'asc', pageIndex: '0' };

export function parseUsersFilters(params: URLSearchParams): UsersFilters {
  const p = readSearchParams(params);
  const size = readInteger(p.pageSize, DEFAULT_PAGE_SIZE, { min: 1, max: 1000 });
  return {
    search: p.q ?? '',
    sortBy: pickOption(p.sortBy, USER_SORT_COLUMNS, 'name'),
    sortOrder: p.sortOrder === 'desc' ? 'desc' : 'asc',
    pageIndex: readInteger(p.pageIndex, 0),
    pageSize: p.pageSize !== undefined && PAGE_SIZES.some((allowed) => allowed === size) ? size : undefined,
    invite: p.invite === '1',
  };
}

export type UsersPatch = Partial<Record<'q' | 'sortBy' | 'sortOrder' | 'pageIndex' | 'pageSize' | 'invite', string | undefined>>;

/** A new search or sort starts at the first page; paging and dialogs keep the rest. */
export function applyUsersChange(params: URLSearchParams, patch: UsersPatch): URLSearchParams {
  const resetsPage = 'q' in patch || 'sortBy' in patch || 'sortOrder' in patch;
  return patchSearchParams(params, resetsPage ? { ...patch, pageIndex: undefined } : patch, URL_DEFAULTS);
}
