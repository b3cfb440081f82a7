import { DEFAULT_PAGE_SIZE } from '@common/constants';
import { FINISHED_STATUSES, INCIDENT_SEVERITIES, INCIDENT_STATUSES, INCIDENT_TYPES } from '@common/incidents';
import { patchSearchParams, pickOption, readInteger, readSearchParams } from '@web/lib/url-state';
import type { IncidentListQuery } from '../api';

/** 'active' is every status before resolved. */
export const STATUS_ACTIVE = 'active';
export const STATUS_FILTERS = [STATUS_ACTIVE, ...INCIDENT_STATUSES] as const;
export const SORT_COLUMNS = ['created_at', 'updated_at', 'incident_id', 'title', 'severity', 'status', 'type'] as const;

export interface IncidentFilters {
  status?: (typeof STATUS_FILTERS)[number];
  severity?: string;
  type?: string;
  /** The commander (people.id). */
  owner?: string;
  component?: string;
  search: string;
  sortBy: (typeof SORT_COLUMNS)[number];
  sortOrder: 'asc' | 'desc';
  pageIndex: number;
  pageSize: number;
}

export const URL_DEFAULTS: Record<string, string> = { sortBy: 'created_at', sortOrder: 'desc', pageIndex: '0', pageSize: String(DEFAULT_PAGE_SIZE) };

const text = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

export function parseIncidentFilters(params: URLSearchParams, storedPageSize = DEFAULT_PAGE_SIZE): IncidentFilters {
  const p = readSearchParams(params);
  return {
    status: STATUS_FILTERS.find((value) => value === p.status),
    severity: INCIDENT_SEVERITIES.find((value) => value === p.severity),
    type: INCIDENT_TYPES.find((value) => value === p.type),
    owner: text(p.owner),
    component: text(p.component),
    search: p.search?.trim() ?? '',
    sortBy: pickOption(p.sortBy, SORT_COLUMNS, 'created_at'),
    sortOrder: p.sortOrder === 'asc' ? 'asc' : 'desc',
    pageIndex: readInteger(p.pageIndex, 0),
    pageSize: readInteger(p.pageSize, storedPageSize, { min: 1, max: 1000 }),
  };
}

/** The server query of the filters. */
export function listQuery(filters: IncidentFilters): IncidentListQuery {
  const status = filters.status === STATUS_ACTIVE ? INCIDENT_STATUSES.filter((value) => !FINISHED_STATUSES.includes(value)) : filters.status ? [filters.status] : [];
  return {
    status: [...status],
    severity: filters.severity ? [filters.severity] : [],
    type: filters.type ? [filters.type] : [],
    commander: filters.owner,
    component: filters.component,
    search: filters.search,
    sortBy: filters.sortBy,
    sortOrder: filters.sortOrder,
    pageIndex: filters.pageIndex,
    pageSize: filters.pageSize,
  };
}

export type FilterPatch = Partial<Record<'status' | 'severity' | 'type' | 'owner' | 'component' | 'search', string | undefined>>;

/** A filter change starts at the first page. */
export function applyFilter(params: URLSearchParams, patch: FilterPatch): URLSearchParams {
  return patchSearchParams(params, { ...patch, pageIndex: undefined }, URL_DEFAULTS);
}

export function applyView(params: URLSearchParams, patch: Partial<Record<'sortBy' | 'sortOrder' | 'pageIndex' | 'pageSize', string | undefined>>): URLSearchParams {
  return patchSearchParams(params, patch, URL_DEFAULTS);
}

export function activeFilters(filters: IncidentFilters): number {
  return [filters.status, filters.severity, filters.type, filters.owner, filters.component, filters.search || undefined].filter(Boolean).length;
}
