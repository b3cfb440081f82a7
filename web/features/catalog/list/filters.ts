import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@common/constants';
import { formatLabelFilter, parseLabelFilter, type LabelFilterEntry } from '@web/features/health/state/labels';
import { patchSearchParams, pickOption, readInteger, readSearchParams } from '@web/lib/url-state';
import type { TriState } from '@web/ui/tri-state-filter';

/**
 * The /catalog page's state, all of it in the URL (design §7): which view (the summary by type, or the
 * items), the summary's grouping, the filters, sorting and paging.
 *
 * Filter formats: `health` and `status` are comma lists with `!` before an excluded value
 * (`unhealthy,warning` or `!healthy`), as POST /api/catalog/summary takes them; `tags` and `labels` are
 * the label filter of the Health page (`key=value:1,key=value:-1`, spec §5). `showDeleted` (yes/no)
 * overrides the 'Show deleted configs' preference for this view.
 */

/** Columns the items table sorts by on the server. */
export const SORT_COLUMNS = ['name', 'type', 'health', 'status', 'changes', 'created_at', 'updated_at'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

/** Summary grouping: by type, or by the value of a tag key. */
export const GROUP_BY_TYPE = 'type';

export interface ValueFilter {
  include: string[];
  exclude: string[];
}

export interface CatalogFilters {
  /** The summary by type, or the items of the filters (a type picked, or every type). */
  view: 'summary' | 'list';
  type?: string;
  groupBy: string;
  health: ValueFilter;
  status: ValueFilter;
  tags: LabelFilterEntry[];
  labels: LabelFilterEntry[];
  search: string;
  /** Items of this agent only (its id; the nil uuid is 'local'). */
  agent?: string;
  /** undefined: as the preference says. */
  showDeleted?: boolean;
  sortBy: SortColumn;
  sortOrder: 'asc' | 'desc';
  pageIndex: number;
  pageSize: number;
}

const URL_DEFAULTS: Record<string, string> = {
  groupBy: GROUP_BY_TYPE,
  sortBy: 'name',
  sortOrder: 'asc',
  pageIndex: '0',
};

export function parseValueFilter(text: string | undefined): ValueFilter {
  const filter: ValueFilter = { include: [], exclude: [] };
  for (const raw of (text ?? '').split(',')) {
    const value = raw.trim();
    if (value.startsWith('!')) {
      const excluded = value.slice(1).trim();
      if (excluded && !filter.exclude.includes(excluded)) filter.exclude.push(excluded);
    } else if (value && !filter.include.includes(value)) filter.include.push(value);
  }
  return filter;
}

/** The URL (and summary API) text of a value filter; undefined when it filters nothing. */
export function formatValueFilter(filter: ValueFilter): string | undefined {
  const text = [...filter.include, ...filter.exclude.map((value) => `!${value}`)].join(',');
  return text === '' ? undefined : text;
}

export function valueState(filter: ValueFilter, value: string): TriState {
  return filter.include.includes(value) ? 1 : filter.exclude.includes(value) ? -1 : 0;
}

/** Sets one value to included, excluded or neither (spec §4 tri-state). */
export function withValueState(filter: ValueFilter, value: string, state: TriState): ValueFilter {
  const include = filter.include.filter((v) => v !== value);
  const exclude = filter.exclude.filter((v) => v !== value);
  if (state === 1) include.push(value);
  if (state === -1) exclude.push(value);
  return { include, exclude };
}

export const isEmptyValueFilter = (filter: ValueFilter) => filter.include.length === 0 && filter.exclude.length === 0;

function isPageSize(value: number): boolean {
  return PAGE_SIZES.some((size) => size === value);
}

/** Reads the page state from the URL; unknown values fall back to the defaults. */
export function parseCatalogFilters(params: URLSearchParams, defaultPageSize: number = DEFAULT_PAGE_SIZE): CatalogFilters {
  const p = readSearchParams(params);
  const type = p.type?.trim() || undefined;
  const pageSize = readInteger(p.pageSize, defaultPageSize, { min: 1, max: 1000 });
  return {
    view: type || p.view === 'list' ? 'list' : 'summary',
    type,
    groupBy: p.groupBy?.trim() || GROUP_BY_TYPE,
    health: parseValueFilter(p.health),
    status: parseValueFilter(p.status),
    tags: parseLabelFilter(p.tags),
    labels: parseLabelFilter(p.labels),
    search: p.search?.trim() ?? '',
    agent: p.agent?.trim() || undefined,
    showDeleted: p.showDeleted === 'yes' ? true : p.showDeleted === 'no' ? false : undefined,
    sortBy: pickOption(p.sortBy, SORT_COLUMNS, 'name'),
    sortOrder: p.sortOrder === 'desc' ? 'desc' : 'asc',
    pageIndex: readInteger(p.pageIndex, 0),
    pageSize: isPageSize(pageSize) ? pageSize : defaultPageSize,
  };
}

export interface FilterPatch {
  type?: string | null;
  health?: ValueFilter;
  status?: ValueFilter;
  tags?: LabelFilterEntry[];
  labels?: LabelFilterEntry[];
  search?: string;
  /** An agent id; null clears it. */
  agent?: string | null;
  showDeleted?: boolean;
}

/** A filter change: the URL keeps the others, and paging starts again at the first page. */
export function applyFilterChange(params: URLSearchParams, patch: FilterPatch): URLSearchParams {
  const text: Record<string, string | undefined> = { pageIndex: undefined };
  if (patch.type !== undefined) text.type = patch.type ?? undefined;
  if (patch.health) text.health = formatValueFilter(patch.health);
  if (patch.status) text.status = formatValueFilter(patch.status);
  if (patch.tags) text.tags = formatLabelFilter(patch.tags);
  if (patch.labels) text.labels = formatLabelFilter(patch.labels);
  if (patch.search !== undefined) text.search = patch.search.trim();
  if (patch.agent !== undefined) text.agent = patch.agent ?? undefined;
  if (patch.showDeleted !== undefined) text.showDeleted = patch.showDeleted ? 'yes' : 'no';
  return patchSearchParams(params, text, URL_DEFAULTS);
}

export interface ViewPatch {
  view?: 'summary' | 'list';
  groupBy?: string;
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
  pageIndex?: number;
  pageSize?: number;
}

/** Grouping, view, sorting and paging keep the filters. */
export function applyViewChange(params: URLSearchParams, patch: ViewPatch): URLSearchParams {
  const text: Record<string, string | undefined> = {};
  if ('view' in patch) text.view = patch.view === 'list' ? 'list' : undefined;
  if ('groupBy' in patch) text.groupBy = patch.groupBy;
  if ('sortBy' in patch) text.sortBy = patch.sortBy;
  if ('sortOrder' in patch) text.sortOrder = patch.sortOrder;
  if ('pageIndex' in patch) text.pageIndex = patch.pageIndex === undefined ? undefined : String(patch.pageIndex);
  if ('pageSize' in patch) text.pageSize = patch.pageSize === undefined ? undefined : String(patch.pageSize);
  return patchSearchParams(params, text, URL_DEFAULTS);
}

/** Back to the summary: the type and list view go, the filters stay (the summary counts with them). */
export function toSummary(params: URLSearchParams): URLSearchParams {
  return patchSearchParams(params, { type: undefined, view: undefined, pageIndex: undefined, sortBy: undefined, sortOrder: undefined }, URL_DEFAULTS);
}

/** The number of filters narrowing the items (for the 'Clear filters' button). */
export function activeFilterCount(filters: CatalogFilters): number {
  return (
    (isEmptyValueFilter(filters.health) ? 0 : 1) +
    (isEmptyValueFilter(filters.status) ? 0 : 1) +
    filters.tags.length +
    filters.labels.length +
    (filters.search ? 1 : 0) +
    (filters.agent ? 1 : 0)
  );
}

/** Clears health, status, tags, labels, search and agent; the type, view and deleted choice stay. */
export function clearFilters(params: URLSearchParams): URLSearchParams {
  return patchSearchParams(params, { health: undefined, status: undefined, tags: undefined, labels: undefined, search: undefined, agent: undefined, pageIndex: undefined });
}
