import { patchSearchParams, pickOption, readSearchParams } from '@web/lib/url-state';
import type { Organization } from './schema';

export const ORGANIZATION_SORT_COLUMNS = ['name', 'members', 'backend_url', 'created_at'] as const;
export type OrganizationSortColumn = (typeof ORGANIZATION_SORT_COLUMNS)[number];

/** The Organizations page's view state, all of it in the URL (STYLE: the URL holds the view's state). */
export interface OrganizationsFilters {
  search: string;
  sortBy: OrganizationSortColumn;
  sortOrder: 'asc' | 'desc';
  /** 'new', or the id of the organization whose dialog is open. */
  edit: string | undefined;
  /** The id of the organization whose members sheet is open. */
  members: string | undefined;
}

const URL_DEFAULTS: Record<string, string> = { sortBy: 'name', sortOrder: 'asc' };

export function parseOrganizationsFilters(params: URLSearchParams): OrganizationsFilters {
  const p = readSearchParams(params);
  return {
    search: p.q ?? '',
    sortBy: pickOption(p.sortBy, ORGANIZATION_SORT_COLUMNS, 'name'),
    sortOrder: p.sortOrder === 'desc' ? 'desc' : 'asc',
    edit: p.edit || undefined,
    members: p.members || undefined,
  };
}

export type OrganizationsPatch = Partial<Record<'q' | 'sortBy' | 'sortOrder' | 'edit' | 'members', string | undefined>>;

export function applyOrganizationsChange(params: URLSearchParams, patch: OrganizationsPatch): URLSearchParams {
  return patchSearchParams(params, patch, URL_DEFAULTS);
}

/** Organizations are few: the list is searched (name, external id, backend) and sorted here. */
export function visibleOrganizations(rows: readonly Organization[], filters: Pick<OrganizationsFilters, 'search' | 'sortBy' | 'sortOrder'>): Organization[] {
  const needle = filters.search.trim().toLowerCase();
  const matches = needle ? rows.filter((row) => [row.name, row.external_id, row.backend_url].some((text) => text?.toLowerCase().includes(needle))) : [...rows];
  const key = (row: Organization): string | number => {
    switch (filters.sortBy) {
      case 'members':
        return row.members;
      case 'backend_url':
        return row.backend_url ?? '';
      case 'created_at':
        return row.created_at;
      case 'name':
        return row.name;
    }
  };
  const direction = filters.sortOrder === 'desc' ? -1 : 1;
  return matches.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'en', { sensitivity: 'base' });
    return order * direction || a.id.localeCompare(b.id);
  });
}
