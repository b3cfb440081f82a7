import { api } from '@web/lib/api';
import type { TimeRangeValue } from '@web/ui/time-range';
import { timeRangeToApi } from '../state/time-range';
import type { SummaryAnswer } from './schema';
import { parseSummaryAnswer } from './summary-guard';

/** The summary's largest page (docs/HEALTH.md); the check detail asks for its one check (the list and the pivot use POST /api/health/checks). */
export const SUMMARY_LIMIT = 20_000;

export const SUMMARY_PATH = '/api/canary/api/summary';

/** How many of each check's newest results the list asks for: its strip (docs/HEALTH.md). */
export const RECENT_RESULTS = 20;

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
    // One check's stats (the detail) need no strip; the list gets each check's newest results with it.
    ...(filters.checkId ? { checkId: filters.checkId } : { recent: RECENT_RESULTS }),
    limit: SUMMARY_LIMIT,
  };
  return api.post(SUMMARY_PATH, body, parseSummaryAnswer, signal ? { signal } : {});
}
