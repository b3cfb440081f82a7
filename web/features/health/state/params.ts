import { DEFAULT_TIME_RANGE, HEALTH_DEFAULTS } from '@common/constants';
import { patchSearchParams, pickOption, readSearchParams } from '@web/lib/url-state';
import type { TimeRangeValue } from '@web/ui/time-range';
import { formatLabelFilter, parseLabelFilter, type LabelFilterEntry } from './labels';
import { timeRangeFromParam, timeRangeToParam } from './time-range';

/** Spec §2: the Health page's query parameters, exactly these. */
export const HEALTH_PARAM_KEYS = [
  'checkId', 'timeRange', 'layout', 'sortBy', 'sortDesc', 'query', 'labels', 'groupBy', 'tabBy', 'hidePassing', 'pivotBy', 'pivotLabel', 'pivotCellType',
] as const;
export type HealthParamKey = (typeof HEALTH_PARAM_KEYS)[number];

export const LAYOUTS = ['table', 'card'] as const;
export type Layout = (typeof LAYOUTS)[number];

/** The table's sortable columns, named as the summary API names them. */
export const SORT_COLUMNS = ['name', 'status', 'uptime', 'latency', 'last_transition_time'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

/** What a pivot cell shows (docs/HEALTH.md "Pivot"). */
export const PIVOT_CELL_TYPES = ['health', 'uptime', 'latency'] as const;
export type PivotCellType = (typeof PIVOT_CELL_TYPES)[number];

export interface HealthParams {
  checkId?: string;
  timeRange: TimeRangeValue;
  /** True when the URL names a range; the check detail otherwise picks one from the last run (spec §9). */
  timeRangeChosen: boolean;
  layout: Layout;
  sortBy: SortColumn;
  sortDesc: boolean;
  query: string;
  labels: LabelFilterEntry[];
  /** 'no-group', a field of HEALTH_GROUP_BY_OPTIONS or a label key. */
  groupBy: string;
  /** A field of HEALTH_TAB_BY_OPTIONS or a label key. */
  tabBy: string;
  hidePassing: boolean;
  /** The pivot's rows: a group-by field or a label key; absent shows the table. */
  pivotBy?: string;
  /** The pivot's columns: a label key (or namespace / type); absent gives one column. */
  pivotLabel?: string;
  pivotCellType: PivotCellType;
}

/** Spec §9 defaults as URL text: a parameter equal to its default leaves the URL. */
export const HEALTH_URL_DEFAULTS: Record<string, string> = {
  timeRange: DEFAULT_TIME_RANGE,
  layout: HEALTH_DEFAULTS.layout,
  sortBy: HEALTH_DEFAULTS.sortBy,
  sortDesc: String(HEALTH_DEFAULTS.sortDesc),
  groupBy: HEALTH_DEFAULTS.groupBy,
  tabBy: HEALTH_DEFAULTS.tabBy,
  hidePassing: String(HEALTH_DEFAULTS.hidePassing),
  pivotCellType: 'health',
};

function readBoolean(text: string | undefined, fallback: boolean): boolean {
  return text === 'true' ? true : text === 'false' ? false : fallback;
}

/** A free-text key (a label key, a group): trimmed, and never one of the forbidden names. */
function readKey(text: string | undefined): string | undefined {
  const key = text?.trim();
  return key && key !== '__proto__' && key !== 'constructor' && key !== 'prototype' ? key : undefined;
}

/** Reads the page state from the URL (spec §2, §9 defaults); unknown values fall back to the defaults. */
export function parseHealthParams(params: URLSearchParams): HealthParams {
  const p = readSearchParams(params);
  return {
    checkId: readKey(p.checkId),
    timeRange: timeRangeFromParam(p.timeRange),
    timeRangeChosen: Boolean(p.timeRange),
    layout: pickOption(p.layout, LAYOUTS, HEALTH_DEFAULTS.layout),
    sortBy: pickOption(p.sortBy, SORT_COLUMNS, HEALTH_DEFAULTS.sortBy),
    sortDesc: readBoolean(p.sortDesc, HEALTH_DEFAULTS.sortDesc),
    query: p.query ?? '',
    labels: parseLabelFilter(p.labels),
    groupBy: readKey(p.groupBy) ?? HEALTH_DEFAULTS.groupBy,
    tabBy: readKey(p.tabBy) ?? HEALTH_DEFAULTS.tabBy,
    hidePassing: readBoolean(p.hidePassing, HEALTH_DEFAULTS.hidePassing),
    pivotBy: readKey(p.pivotBy),
    pivotLabel: readKey(p.pivotLabel),
    pivotCellType: pickOption(p.pivotCellType, PIVOT_CELL_TYPES, 'health'),
  };
}

/** A change to some of the page's state, in its own types; undefined returns a key to its default. */
export interface HealthPatch {
  checkId?: string | undefined;
  timeRange?: TimeRangeValue | undefined;
  layout?: Layout;
  sortBy?: SortColumn;
  sortDesc?: boolean;
  query?: string;
  labels?: readonly LabelFilterEntry[];
  groupBy?: string;
  tabBy?: string;
  hidePassing?: boolean;
  pivotBy?: string | undefined;
  pivotLabel?: string | undefined;
  pivotCellType?: PivotCellType;
}

/** Writes a patch into the URL, dropping defaults so shared links stay short. */
export function applyHealthPatch(params: URLSearchParams, patch: HealthPatch): URLSearchParams {
  const has = (key: keyof HealthPatch) => Object.hasOwn(patch, key);
  const text = (value: string | boolean | undefined) => (value === undefined ? undefined : String(value));
  const out: Record<string, string | undefined> = {};
  if (has('checkId')) out.checkId = patch.checkId;
  if (has('timeRange')) out.timeRange = patch.timeRange ? timeRangeToParam(patch.timeRange) : undefined;
  if (has('layout')) out.layout = patch.layout;
  if (has('sortBy')) out.sortBy = patch.sortBy;
  if (has('sortDesc')) out.sortDesc = text(patch.sortDesc);
  if (has('query')) out.query = patch.query?.trim() || undefined;
  if (has('labels')) out.labels = patch.labels ? formatLabelFilter(patch.labels) : undefined;
  if (has('groupBy')) out.groupBy = patch.groupBy;
  if (has('tabBy')) out.tabBy = patch.tabBy;
  if (has('hidePassing')) out.hidePassing = text(patch.hidePassing);
  if (has('pivotBy')) out.pivotBy = patch.pivotBy;
  if (has('pivotLabel')) out.pivotLabel = patch.pivotLabel;
  if (has('pivotCellType')) out.pivotCellType = patch.pivotCellType;
  return patchSearchParams(params, out, HEALTH_URL_DEFAULTS);
}

/** Spec §2: closing the check detail removes checkId and resets the time range to 1h. */
export function closeCheckPatch(): HealthPatch {
  return { checkId: undefined, timeRange: undefined };
}

/** How many filters narrow the list (spec §2: the filter-menu badge): Hide Passing and each label value. */
export function activeFilterCount(state: Pick<HealthParams, 'hidePassing' | 'labels'>): number {
  return (state.hidePassing ? 1 : 0) + state.labels.length;
}
