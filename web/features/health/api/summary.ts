import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api';
import type { TimeRangeValue } from '@web/ui/time-range';
import { timeRangeToApi, timeRangeToParam } from '../state/time-range';
import { healthKeys } from './keys';
import { summaryAnswerSchema, type SummaryAnswer } from './schema';

/** The summary's largest page (docs/HEALTH.md): the Health page asks for every check at once. */
export const SUMMARY_LIMIT = 20_000;

export const SUMMARY_PATH = '/api/canary/api/summary';

export interface SummaryFilters {
  timeRange: TimeRangeValue;
  query: string;
  hidePassing: boolean;
}

/**
 * POST /api/canary/api/summary. The signal is React Query's: a refresh, a new range or a new search
 * aborts the request in flight (spec §7), and the aborted one is ignored (spec §8).
 */
export async function fetchSummary(filters: SummaryFilters & { checkId?: string }, signal?: AbortSignal): Promise<SummaryAnswer> {
  const range = timeRangeToApi(filters.timeRange) ?? { start: '1h' };
  const body = {
    ...range,
    ...(filters.query.trim() ? { query: filters.query.trim() } : {}),
    hidePassing: filters.hidePassing,
    ...(filters.checkId ? { checkId: filters.checkId } : {}),
    limit: SUMMARY_LIMIT,
  };
  return api.post(SUMMARY_PATH, body, (data) => summaryAnswerSchema.parse(data), signal ? { signal } : {});
}

/**
 * The Health page's checks. Spec §7: refetched when the range changes, on a manual refresh, when the URL
 * filters change (they are the key) and every `refreshMs` (0: never). The previous answer stays on screen
 * while the next one loads, so a search does not blank the table.
 */
export function useChecksSummary(filters: SummaryFilters, refreshMs: number) {
  const key = { range: timeRangeToParam(filters.timeRange), query: filters.query.trim(), hidePassing: filters.hidePassing };
  return useQuery({
    queryKey: healthKeys.summary(key),
    queryFn: ({ signal }) => fetchSummary(filters, signal),
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs > 0 ? refreshMs : false,
  });
}
