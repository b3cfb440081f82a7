import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@common/constants';
import { patchSearchParams, pickOption, readInteger, readSearchParams } from '@web/lib/url-state';
import { relativeRange, timeRangeFromParams, type TimeRangeValue } from '@web/ui/time-range';

export const RULE_SORT_COLUMNS = ['name', 'status', 'sent', 'failed', 'pending', 'last_sent', 'source'] as const;
export type RuleSortColumn = (typeof RULE_SORT_COLUMNS)[number];

/** The counts' range defaults to the last day. */
export const DEFAULT_RULES_RANGE: TimeRangeValue = relativeRange('1d');

export interface RulesFilters {
  search: string;
  range: TimeRangeValue;
  sortBy: RuleSortColumn;
  sortOrder: 'asc' | 'desc';
  pageIndex: number;
  pageSize: number | undefined;
  /** The editor: 'new' or a rule's id. */
  edit: string | undefined;
}

const URL_DEFAULTS: Record<string, string> = { sortBy: 'name', sortOrder: 'asc', pageIndex: '0' };

export function parseRulesFilters(params: URLSearchParams): RulesFilters {
  const p = readSearchParams(params);
  const size = readInteger(p.pageSize, DEFAULT_PAGE_SIZE, { min: 1, max: 1000 });
  return {
    search: p.q ?? '',
    range: timeRangeFromParams(params, DEFAULT_RULES_RANGE),
    sortBy: pickOption(p.sortBy, RULE_SORT_COLUMNS, 'name'),
    sortOrder: p.sortOrder === 'desc' ? 'desc' : 'asc',
    pageIndex: readInteger(p.pageIndex, 0),
    pageSize: p.pageSize !== undefined && PAGE_SIZES.some((allowed) => allowed === size) ? size : undefined,
    edit: p.edit,
  };
}

export type RulesPatch = Partial<Record<'q' | 'sortBy' | 'sortOrder' | 'pageIndex' | 'pageSize' | 'edit', string | undefined>>;

/** A new search or sort starts at the first page. */
export function applyRulesChange(params: URLSearchParams, patch: RulesPatch): URLSearchParams {
  const resetsPage = 'q' in patch || 'sortBy' in patch || 'sortOrder' in patch;
  return patchSearchParams(params, resetsPage ? { ...patch, pageIndex: undefined } : patch, URL_DEFAULTS);
}

export interface SortableRule {
  name: string;
  status?: string | null | undefined;
  sent: number;
  failed: number;
  pending: number;
  last_sent?: string | null | undefined;
  source?: string | null | undefined;
}

/** Rules in the chosen order (the counts are over the chosen range, so this sorts on the page). */
export function sortRules<T extends SortableRule>(rows: readonly T[], by: RuleSortColumn, order: 'asc' | 'desc'): T[] {
  const sign = order === 'asc' ? 1 : -1;
  const key = (row: T): string | number => {
    switch (by) {
      case 'sent':
      case 'failed':
      case 'pending':
        return row[by];
      case 'last_sent':
        return row.last_sent ? new Date(row.last_sent).getTime() : 0;
      case 'status':
        return row.status ?? '';
      case 'source':
        return row.source ?? '';
      case 'name':
        return row.name.toLowerCase();
    }
  };
  return [...rows].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    const diff = typeof ka === 'number' && typeof kb === 'number' ? ka - kb : String(ka).localeCompare(String(kb));
    return diff * sign || a.name.localeCompare(b.name);
  });
}
