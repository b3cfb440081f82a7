import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api';
import type { TimeRangeValue } from '@web/ui/time-range';
import { parseHealthParams } from '../state/params';
import { timeRangeToApi, timeRangeToParam } from '../state/time-range';
import { healthKeys } from './keys';
import type { SummaryAnswer } from './schema';
import { parseSummaryAnswer } from './summary-guard';

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
  return api.post(SUMMARY_PATH, body, parseSummaryAnswer, signal ? { signal } : {});
}

/** The query key's filters: what the server is asked (the range as its URL text). */
function summaryKey(filters: SummaryFilters) {
  return { range: timeRangeToParam(filters.timeRange), query: filters.query.trim(), hidePassing: filters.hidePassing };
}

/**
 * A request started while the page's code was still loading (`preloadSummary`), waiting to be taken by
 * the first query that asks the same. Only the first: a refresh or a later visit asks again.
 */
let preloaded: { key: string; answer: Promise<SummaryAnswer>; controller: AbortController } | undefined;

/**
 * Starts the list's request as soon as the route begins to load (routes.ts), instead of after the
 * page's code has arrived and rendered: with 10,000 checks the answer is the longest wait.
 */
export function preloadSummary(search: string): void {
  const state = parseHealthParams(new URLSearchParams(search));
  const filters = { timeRange: state.timeRange, query: state.query, hidePassing: state.hidePassing };
  const controller = new AbortController();
  const answer = fetchSummary(filters, controller.signal);
  // Nobody may take it (the page shows something else first): its failure is not an unhandled one.
  answer.catch(() => undefined);
  preloaded = { key: JSON.stringify(summaryKey(filters)), answer, controller };
}

function takePreloaded(filters: SummaryFilters, signal: AbortSignal): Promise<SummaryAnswer> | undefined {
  const entry = preloaded;
  preloaded = undefined;
  if (!entry) return undefined;
  if (entry.key !== JSON.stringify(summaryKey(filters))) {
    entry.controller.abort();
    return undefined;
  }
  // Aborting the query (a refresh, a new search) aborts the request it took over.
  signal.addEventListener('abort', () => entry.controller.abort(), { once: true });
  return entry.answer;
}

/**
 * The Health page's checks. Spec §7: refetched when the range changes, on a manual refresh, when the URL
 * filters change (they are the key) and every `refreshMs` (0: never). The previous answer stays on screen
 * while the next one loads, so a search does not blank the table.
 */
export function useChecksSummary(filters: SummaryFilters, refreshMs: number) {
  return useQuery({
    queryKey: healthKeys.summary(summaryKey(filters)),
    queryFn: ({ signal }) => takePreloaded(filters, signal) ?? fetchSummary(filters, signal),
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs > 0 ? refreshMs : false,
  });
}
