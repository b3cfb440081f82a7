import { CHANGES_RECURSIVE_DEPTH, DEFAULT_PAGE_SIZE, RELATED_CONFIGS_MAX_DEPTH } from '@common/constants';
import { patchSearchParams, pickOption, readInteger, readSearchParams } from '@web/lib/url-state';
import { relativeRange, timeRangeFromParams, writeTimeRangeParams, type TimeRangeValue } from '@web/ui/time-range';
import { SEVERITIES, type Severity } from '../components/badges';

/** Spec §7 POST /catalog/changes `recursive`: the config alone, its parents, its children, or both. */
export const RECURSIVE_OPTIONS = ['none', 'up', 'down', 'all'] as const;
export type Recursive = (typeof RECURSIVE_OPTIONS)[number];

/** Columns the feed sorts by on the server. */
export const CHANGE_SORT_COLUMNS = ['created_at', 'first_observed', 'change_type', 'severity', 'config_type', 'count', 'source', 'name'] as const;
export type ChangeSortColumn = (typeof CHANGE_SORT_COLUMNS)[number];

/** Rows per page: the server's default 50 (spec §9 tables), and the shell's larger sizes. */
export const CHANGE_PAGE_SIZES = [50, 100, 200] as const;

/** The feed shows the last 7 days unless the URL says otherwise (the catalog's 'changes' count covers 7 days too). */
export const DEFAULT_CHANGES_RANGE: TimeRangeValue = relativeRange('7d');

export interface ChangesFilters {
  changeType?: string;
  severity?: Severity;
  source?: string;
  configType?: string;
  /** Config tags every change's config must have. */
  tags: Record<string, string>;
  timeRange: TimeRangeValue;
  sortBy: ChangeSortColumn;
  sortOrder: 'asc' | 'desc';
  pageIndex: number;
  pageSize: number;
  /** The change whose diff is open. */
  change?: string;
  /** One config's feed (/catalog/{id}/changes): how far to follow its relationships, and how deep. */
  recursive: Recursive;
  depth: number;
}

/** URL values that are the defaults; they are left out of the URL. */
export const CHANGES_URL_DEFAULTS: Record<string, string> = {
  sortBy: 'created_at',
  sortOrder: 'desc',
  pageIndex: '0',
  pageSize: String(DEFAULT_PAGE_SIZE),
  recursive: 'none',
  depth: String(CHANGES_RECURSIVE_DEPTH),
};

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** 'env=prod,team=web' → {env: 'prod', team: 'web'}; pairs without a key, and forbidden keys, are dropped. */
export function parseTags(text: string | undefined): Record<string, string> {
  const tags: Record<string, string> = Object.create(null);
  for (const part of (text ?? '').split(',')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const key = part.slice(0, at).trim();
    if (key === '' || FORBIDDEN.has(key)) continue;
    tags[key] = part.slice(at + 1).trim();
  }
  return { ...tags };
}

/** The URL text of tags, keys in order so one filter has one URL. */
export function formatTags(tags: Readonly<Record<string, string>>): string | undefined {
  const keys = Object.keys(tags).sort();
  return keys.length === 0 ? undefined : keys.map((key) => `${key}=${tags[key] ?? ''}`).join(',');
}

function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** Reads the feed's state from the URL; unknown values fall back to the defaults. */
export function parseChangesFilters(params: URLSearchParams): ChangesFilters {
  const p = readSearchParams(params);
  const severity = SEVERITIES.find((option) => option === p.severity);
  return {
    changeType: text(p.changeType),
    severity,
    source: text(p.source),
    configType: text(p.configType),
    tags: parseTags(p.tags),
    timeRange: timeRangeFromParams(params, DEFAULT_CHANGES_RANGE),
    sortBy: pickOption(p.sortBy, CHANGE_SORT_COLUMNS, 'created_at'),
    sortOrder: p.sortOrder === 'asc' ? 'asc' : 'desc',
    pageIndex: readInteger(p.pageIndex, 0),
    pageSize: readInteger(p.pageSize, DEFAULT_PAGE_SIZE, { min: 1, max: 1000 }),
    change: text(p.change),
    recursive: pickOption(p.recursive, RECURSIVE_OPTIONS, 'none'),
    depth: readInteger(p.depth, CHANGES_RECURSIVE_DEPTH, { min: 1, max: RELATED_CONFIGS_MAX_DEPTH }),
  };
}

export type ChangesFilterPatch = Partial<Record<'changeType' | 'severity' | 'source' | 'configType' | 'tags' | 'recursive' | 'depth', string | undefined>>;

/** A filter change starts at the first page with no diff open (the open row may not be in the new page). */
export function applyChangesFilter(params: URLSearchParams, patch: ChangesFilterPatch): URLSearchParams {
  return patchSearchParams(params, { ...patch, pageIndex: undefined, change: undefined }, CHANGES_URL_DEFAULTS);
}

export function applyChangesTimeRange(params: URLSearchParams, value: TimeRangeValue): URLSearchParams {
  return applyChangesFilter(writeTimeRangeParams(params, value), {});
}

/** Sorting and paging keep the filters; a new sort starts at the first page. */
export function applyChangesView(params: URLSearchParams, patch: Partial<Record<'sortBy' | 'sortOrder' | 'pageIndex' | 'pageSize' | 'change', string | undefined>>): URLSearchParams {
  return patchSearchParams(params, patch, CHANGES_URL_DEFAULTS);
}

/** The tags with one added (or replaced) or removed, as the URL writes them. */
export function withTag(tags: Readonly<Record<string, string>>, key: string, value: string | undefined): string | undefined {
  const next: Record<string, string> = { ...tags };
  if (value === undefined) delete next[key];
  else if (!FORBIDDEN.has(key)) next[key] = value;
  return formatTags(next);
}

/** How many filters narrow the feed (the time range is always there, so it does not count). */
export function activeFilterCount(filters: ChangesFilters): number {
  return [filters.changeType, filters.severity, filters.source, filters.configType].filter(Boolean).length + Object.keys(filters.tags).length;
}
