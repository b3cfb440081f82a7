import { JOB_DURATION_FILTERS, JOB_HISTORY_DEFAULTS, JOB_STATUSES, type JobDurationFilter, type JobStatus } from '@common/constants';
import { relativeRange, timeRangeFromParams, writeTimeRangeParams, type TimeRangeValue } from '@web/ui/time-range';
import { patchSearchParams, pickOption, readInteger, readSearchParams } from '@web/lib/url-state';

export const STATUS_ALL = 'all';
export type StatusFilter = JobStatus | typeof STATUS_ALL;
export const STATUS_OPTIONS: readonly StatusFilter[] = [STATUS_ALL, ...JOB_STATUSES];

export const DURATION_OPTIONS = Object.keys(JOB_DURATION_FILTERS).filter((key): key is JobDurationFilter => Object.hasOwn(JOB_DURATION_FILTERS, key));

/** Resource types a job can run for: the ones spec §2 links to a page. */
export const RESOURCE_TYPES = ['canary', 'catalog_scraper', 'config', 'config_scraper', 'playbook', 'topology'] as const;

/** Refresh rates; spec §9 defaults to None. */
export const REFRESH_RATES = { None: 0, '15s': 15_000, '30s': 30_000, '1m': 60_000, '5m': 300_000 } as const;
export type RefreshRate = keyof typeof REFRESH_RATES;
const REFRESH_OPTIONS = Object.keys(REFRESH_RATES).filter((key): key is RefreshRate => Object.hasOwn(REFRESH_RATES, key));

export const SORTABLE_COLUMNS = ['name', 'resource_name', 'resource_type', 'status', 'time_start', 'duration_millis', 'success_count', 'error_count'] as const;
export type SortableColumn = (typeof SORTABLE_COLUMNS)[number];

export const JOB_PAGE_SIZES = [50, 100, 150, 200, 500] as const;

export interface JobsFilters {
  name?: string;
  resourceType?: string;
  status: StatusFilter;
  duration: JobDurationFilter;
  timeRange: TimeRangeValue;
  refresh: RefreshRate;
  sortBy: SortableColumn;
  sortOrder: 'asc' | 'desc';
  pageIndex: number;
  pageSize: number;
  /** The job whose details dialog is open. */
  details?: string;
}

export const DEFAULT_TIME_RANGE: TimeRangeValue = relativeRange(JOB_HISTORY_DEFAULTS.timeRange);

/** URL values that are the defaults; they are left out of the URL. */
const URL_DEFAULTS: Record<string, string> = {
  status: JOB_HISTORY_DEFAULTS.status,
  duration: 'none',
  refresh: JOB_HISTORY_DEFAULTS.refreshRate,
  sortBy: 'time_start',
  sortOrder: 'desc',
  pageIndex: '0',
  pageSize: String(JOB_HISTORY_DEFAULTS.pageSize),
};

/** Reads the page state from the URL with the defaults of spec §9; unknown values fall back. */
export function parseJobsFilters(params: URLSearchParams): JobsFilters {
  const p = readSearchParams(params);
  return {
    name: p.name || undefined,
    resourceType: p.resourceType || undefined,
    status: pickOption(p.status, STATUS_OPTIONS, JOB_HISTORY_DEFAULTS.status),
    duration: pickOption(p.duration, DURATION_OPTIONS, 'none'),
    timeRange: timeRangeFromParams(params, DEFAULT_TIME_RANGE),
    refresh: pickOption(p.refresh, REFRESH_OPTIONS, JOB_HISTORY_DEFAULTS.refreshRate),
    sortBy: pickOption(p.sortBy, SORTABLE_COLUMNS, 'time_start'),
    sortOrder: p.sortOrder === 'asc' ? 'asc' : 'desc',
    pageIndex: readInteger(p.pageIndex, 0),
    pageSize: readInteger(p.pageSize, JOB_HISTORY_DEFAULTS.pageSize, { min: 1, max: 1000 }),
    details: p.details || undefined,
  };
}

export type FilterPatch = Partial<Record<'name' | 'resourceType' | 'status' | 'duration' | 'refresh', string | undefined>>;

/** A filter change: spec §9 resets pageIndex and pageSize. */
export function applyFilterChange(params: URLSearchParams, patch: FilterPatch): URLSearchParams {
  return patchSearchParams(params, { ...patch, pageIndex: undefined, pageSize: undefined }, URL_DEFAULTS);
}

export function applyTimeRangeChange(params: URLSearchParams, value: TimeRangeValue): URLSearchParams {
  return applyFilterChange(writeTimeRangeParams(params, value), {});
}

/** Sorting and paging keep the filters; a new sort starts at the first page. */
export function applyViewChange(params: URLSearchParams, patch: Partial<Record<'sortBy' | 'sortOrder' | 'pageIndex' | 'pageSize' | 'details', string | undefined>>): URLSearchParams {
  return patchSearchParams(params, patch, URL_DEFAULTS);
}
