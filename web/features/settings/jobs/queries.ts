import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { LOOKUP_STALE_TIME_MS } from '@common/constants';
import { db } from '@web/lib/db';
import { REFRESH_RATES, type RefreshRate } from './filters';
import { buildJobsQuery, type JobsQueryFilters } from './query';
import { JOB_HISTORY_COLUMNS, jobHistorySchema, type JobHistory } from './schema';

export const jobHistoryKeys = {
  all: ['job_histories'] as const,
  list: (filters: JobsQueryFilters) => ['job_histories', 'list', filters] as const,
  detail: (id: string) => ['job_histories', 'detail', id] as const,
  names: () => ['job_history_names'] as const,
};

export interface JobHistoryPage {
  rows: JobHistory[];
  total: number;
}

export function useJobHistories(filters: JobsQueryFilters, refresh: RefreshRate) {
  return useQuery({
    queryKey: jobHistoryKeys.list(filters),
    queryFn: async ({ signal }): Promise<JobHistoryPage> => {
      // Relative ranges resolve at fetch time, so a refresh moves the window forward.
      const { data, error, count } = await buildJobsQuery(db, filters, new Date()).abortSignal(signal);
      if (error) throw new Error(error.message, { cause: error });
      const rows = z.array(jobHistorySchema).parse(data ?? []);
      return { rows, total: count ?? rows.length };
    },
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_RATES[refresh] || false,
  });
}

/** One run, for a details dialog opened from a shared link whose row is not on the current page. */
export function useJobHistory(id: string | undefined, fromPage: JobHistory | undefined) {
  return useQuery({
    queryKey: jobHistoryKeys.detail(id ?? ''),
    enabled: Boolean(id) && !fromPage,
    initialData: fromPage,
    queryFn: async () => {
      const { data, error } = await db.from('job_histories').select(JOB_HISTORY_COLUMNS).eq('id', id ?? '').maybeSingle();
      if (error) throw new Error(error.message, { cause: error });
      return data === null ? null : jobHistorySchema.parse(data);
    },
  });
}

export function useJobHistoryNames() {
  return useQuery({
    queryKey: jobHistoryKeys.names(),
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: async () => {
      const { data, error } = await db.from('job_history_names').select('name').order('name');
      if (error) throw new Error(error.message, { cause: error });
      return z.array(z.object({ name: z.string() })).parse(data ?? []).map((row) => row.name);
    },
  });
}

/** One page of the job runs of one resource (the Job History tab of a detail page), newest first. */
export function useResourceJobHistories(resourceType: string, resourceId: string, page: { pageIndex: number; pageSize: number }) {
  return useQuery({
    queryKey: [...jobHistoryKeys.all, 'resource', resourceType, resourceId, page] as const,
    queryFn: async ({ signal }): Promise<JobHistoryPage> => {
      const first = page.pageIndex * page.pageSize;
      const { data, error, count } = await db
        .from('job_histories')
        .select(JOB_HISTORY_COLUMNS, { count: 'exact' })
        .eq('resource_type', resourceType)
        .eq('resource_id', resourceId)
        .order('time_start', { ascending: false })
        .range(first, first + page.pageSize - 1)
        .abortSignal(signal);
      if (error) throw new Error(error.message, { cause: error });
      const rows = z.array(jobHistorySchema).parse(data ?? []);
      return { rows, total: count ?? rows.length };
    },
    placeholderData: keepPreviousData,
  });
}
