import { DEFAULT_PAGE_SIZE } from '@common/constants';
import { patchSearchParams, pickOption, readInteger, readSearchParams } from '@web/lib/url-state';
import { SEVERITIES, type Severity } from '../components/badges';

/** Spec §3 Config analysis status (migration 0007), and 'all'. */
export const INSIGHT_STATUSES = ['open', 'resolved', 'silenced'] as const;
export const STATUS_ALL = 'all';
export type InsightStatusFilter = (typeof INSIGHT_STATUSES)[number] | typeof STATUS_ALL;
const STATUS_OPTIONS: readonly InsightStatusFilter[] = [...INSIGHT_STATUSES, STATUS_ALL];

export const INSIGHT_SORT_COLUMNS = ['last_observed', 'first_observed', 'analyzer', 'analysis_type', 'status', 'config_name'] as const;
export type InsightSortColumn = (typeof INSIGHT_SORT_COLUMNS)[number];

export interface InsightsFilters {
  analyzer?: string;
  analysisType?: string;
  severity?: Severity;
  /** Open insights unless the URL asks otherwise: they are what needs attention. */
  status: InsightStatusFilter;
  configType?: string;
  sortBy: InsightSortColumn;
  sortOrder: 'asc' | 'desc';
  pageIndex: number;
  pageSize: number;
  /** The insight whose details are open. */
  insight?: string;
}

export const INSIGHTS_URL_DEFAULTS: Record<string, string> = {
  status: 'open',
  sortBy: 'last_observed',
  sortOrder: 'desc',
  pageIndex: '0',
  pageSize: String(DEFAULT_PAGE_SIZE),
};

function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

export function parseInsightsFilters(params: URLSearchParams): InsightsFilters {
  const p = readSearchParams(params);
  return {
    analyzer: text(p.analyzer),
    analysisType: text(p.analysisType),
    severity: SEVERITIES.find((option) => option === p.severity),
    status: pickOption(p.status, STATUS_OPTIONS, 'open'),
    configType: text(p.configType),
    sortBy: pickOption(p.sortBy, INSIGHT_SORT_COLUMNS, 'last_observed'),
    sortOrder: p.sortOrder === 'asc' ? 'asc' : 'desc',
    pageIndex: readInteger(p.pageIndex, 0),
    pageSize: readInteger(p.pageSize, DEFAULT_PAGE_SIZE, { min: 1, max: 1000 }),
    insight: text(p.insight),
  };
}

export type InsightsFilterPatch = Partial<Record<'analyzer' | 'analysisType' | 'severity' | 'status' | 'configType', string | undefined>>;

/** A filter change starts at the first page. */
export function applyInsightsFilter(params: URLSearchParams, patch: InsightsFilterPatch): URLSearchParams {
  return patchSearchParams(params, { ...patch, pageIndex: undefined }, INSIGHTS_URL_DEFAULTS);
}

export function applyInsightsView(params: URLSearchParams, patch: Partial<Record<'sortBy' | 'sortOrder' | 'pageIndex' | 'pageSize' | 'insight', string | undefined>>): URLSearchParams {
  return patchSearchParams(params, patch, INSIGHTS_URL_DEFAULTS);
}
