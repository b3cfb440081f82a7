import type { PostgrestClient } from '@supabase/postgrest-js';
import { STATUS_ALL, type InsightsFilters } from './filters';
import { INSIGHT_COLUMNS } from './schema';

export type InsightsQueryFilters = Omit<InsightsFilters, 'insight'>;

/**
 * One page of insights as a PostgREST request (config_analysis_items): filters as bound parameters, the
 * total from an exact count, insights of deleted configs only when the person shows deleted configs.
 */
export function buildInsightsQuery(client: PostgrestClient, filters: InsightsQueryFilters, includeDeleted: boolean) {
  let query = client.from('config_analysis_items').select(INSIGHT_COLUMNS, { count: 'exact' });
  if (filters.analyzer) query = query.eq('analyzer', filters.analyzer);
  if (filters.analysisType) query = query.eq('analysis_type', filters.analysisType);
  if (filters.severity) query = query.eq('severity', filters.severity);
  if (filters.status !== STATUS_ALL) query = query.eq('status', filters.status);
  if (filters.configType) query = query.eq('config_type', filters.configType);
  if (!includeDeleted) query = query.is('config_deleted_at', null);
  const first = filters.pageIndex * filters.pageSize;
  let ordered = query.order(filters.sortBy, { ascending: filters.sortOrder === 'asc', nullsFirst: false });
  // Ties end on the id, so pages never overlap or skip a row.
  if (filters.sortBy !== 'last_observed') ordered = ordered.order('last_observed', { ascending: false });
  return ordered.order('id').range(first, first + filters.pageSize - 1);
}
