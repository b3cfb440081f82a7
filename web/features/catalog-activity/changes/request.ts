import { resolveTimeRange } from '@web/ui/time-range';
import type { ChangesFilters } from './filters';

/** The body of POST /api/catalog/changes (spec §7). */
export interface ChangesRequest {
  id?: string;
  config_type?: string;
  type?: string;
  severity?: string;
  source?: string;
  from?: string;
  to?: string;
  tags?: Record<string, string>;
  recursive?: string;
  depth?: number;
  include_deleted_configs?: boolean;
  sort_by: string;
  page: number;
  page_size: number;
}

/** The filters that decide which rows a page shows (not which diff is open). */
export type ChangesQueryFilters = Omit<ChangesFilters, 'change'>;

/** Which feed: every change, or one config's (with its relationships as the page says). */
export interface ChangesScope {
  configId?: string;
  /** Spec §2 preferences: 'Show deleted configs'. */
  includeDeleted: boolean;
}

/**
 * The request for one page: bounds resolved now (a relative range moves with every fetch), the page
 * 1-based, and the sort as a column, descending with a leading '-'.
 */
export function buildChangesRequest(filters: ChangesQueryFilters, scope: ChangesScope, now: Date = new Date()): ChangesRequest {
  const body: ChangesRequest = {
    sort_by: `${filters.sortOrder === 'desc' ? '-' : ''}${filters.sortBy}`,
    page: filters.pageIndex + 1,
    page_size: filters.pageSize,
  };
  if (scope.configId) {
    body.id = scope.configId;
    body.recursive = filters.recursive;
    if (filters.recursive !== 'none') body.depth = filters.depth;
  }
  if (filters.changeType) body.type = filters.changeType;
  if (filters.severity) body.severity = filters.severity;
  if (filters.source) body.source = filters.source;
  if (filters.configType) body.config_type = filters.configType;
  if (Object.keys(filters.tags).length > 0) body.tags = filters.tags;
  if (scope.includeDeleted) body.include_deleted_configs = true;
  let range = null;
  try {
    range = resolveTimeRange(filters.timeRange, now);
  } catch (error) {
    // A mapped range that does not evaluate: logged, and the feed shows every time (spec §8).
    console.warn(error);
  }
  if (range) {
    body.from = range.from.toISOString();
    body.to = range.to.toISOString();
  }
  return body;
}
