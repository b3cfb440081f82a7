import { JOB_DURATION_FILTERS } from '@common/constants';
import type { PostgrestClient } from '@supabase/postgrest-js';
import { resolveTimeRange } from '@web/ui/time-range';
import { STATUS_ALL, type JobsFilters } from './filters';
import { JOB_HISTORY_COLUMNS } from './schema';

/** The filters that decide which rows a page shows (not the open dialog or refresh rate). */
export type JobsQueryFilters = Omit<JobsFilters, 'details' | 'refresh'>;

function bounds(filters: JobsQueryFilters, now: Date) {
  try {
    return resolveTimeRange(filters.timeRange, now);
  } catch (error) {
    // A mapped range that does not evaluate: logged, and the page shows every time (spec §8).
    console.warn(error);
    return null;
  }
}

/**
 * One page of job history as a PostgREST request: filters as bound query parameters, the total from
 * `count: 'exact'` (spec §7), sorted with the empty values last.
 */
export function buildJobsQuery(client: PostgrestClient, filters: JobsQueryFilters, now: Date = new Date()) {
  let query = client.from('job_histories').select(JOB_HISTORY_COLUMNS, { count: 'exact' });
  if (filters.name) query = query.eq('name', filters.name);
  if (filters.resourceType) query = query.eq('resource_type', filters.resourceType);
  if (filters.status !== STATUS_ALL) query = query.eq('status', filters.status);
  const minDuration = JOB_DURATION_FILTERS[filters.duration];
  if (minDuration > 0) query = query.gte('duration_millis', minDuration);
  const range = bounds(filters, now);
  if (range) query = query.gte('time_start', range.from.toISOString()).lte('time_start', range.to.toISOString());
  const first = filters.pageIndex * filters.pageSize;
  return query.order(filters.sortBy, { ascending: filters.sortOrder === 'asc', nullsFirst: false }).range(first, first + filters.pageSize - 1);
}
