import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { db } from '@web/lib/db';
import { activityKeys } from '../queries';
import { buildInsightsQuery, type InsightsQueryFilters } from './query';
import { INSIGHT_DETAIL_COLUMNS, insightDetailSchema, insightRowSchema } from './schema';

export function useInsights(filters: InsightsQueryFilters, includeDeleted: boolean) {
  return useQuery({
    queryKey: activityKeys.insights({ ...filters, includeDeleted }),
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      const { data, error, count } = await buildInsightsQuery(db, filters, includeDeleted).abortSignal(signal);
      if (error) throw new Error(error.message, { cause: error });
      const rows = z.array(insightRowSchema).parse(data ?? []);
      return { rows, total: count ?? rows.length };
    },
  });
}

/** One insight with its analysis, for the details dialog (also when a shared link names one off this page). */
export function useInsight(id: string | undefined) {
  return useQuery({
    queryKey: activityKeys.insight(id ?? ''),
    enabled: Boolean(id),
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('config_analysis_items').select(INSIGHT_DETAIL_COLUMNS).eq('id', id ?? '').abortSignal(signal).maybeSingle();
      if (error) throw new Error(error.message, { cause: error });
      return data === null ? null : insightDetailSchema.parse(data);
    },
  });
}
