import { CHECK_STATUS_HISTORY_PAGE_SIZE, LOOKUP_STALE_TIME_MS } from '@common/constants';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';
import { resolveTimeRange, type TimeRangeValue } from '@web/ui/time-range';
import { timeRangeToApi, timeRangeToParam } from '../state/time-range';
import { healthKeys } from './keys';
import { fetchSummary } from './summary';
import {
  CHECK_SPEC_COLUMNS,
  CHECK_STATUS_COLUMNS,
  checkSpecSchema,
  checkStatusSchema,
  graphAnswerSchema,
  relationshipSchema,
  runResultSchema,
  type CheckStatus,
  type RunResult,
} from './schema';

function dbError(error: { message: string }): Error {
  return new Error(error.message, { cause: error });
}

/** The check's row with its spec and canary (the Spec tab); null when there is no such check. */
export function useCheckRecord(id: string) {
  return useQuery({
    queryKey: healthKeys.spec(id),
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('checks').select(CHECK_SPEC_COLUMNS).eq('id', id).abortSignal(signal).maybeSingle();
      if (error) throw dbError(error);
      return data === null ? null : checkSpecSchema.parse(data);
    },
  });
}

/** One check's uptime, latency and times over the range (the summary for this check alone: exact percentiles). */
export function useCheckStats(id: string, timeRange: TimeRangeValue) {
  return useQuery({
    queryKey: healthKeys.check(id, timeRangeToParam(timeRange)),
    queryFn: async ({ signal }) => {
      const answer = await fetchSummary({ timeRange, query: '', hidePassing: false, checkId: id }, signal);
      return answer.checks_summary[0] ?? null;
    },
    placeholderData: keepPreviousData,
  });
}

/** GET /api/canary/api/graph: pass/fail counts and mean latency in at most 300 buckets. */
export function useCheckGraph(id: string, timeRange: TimeRangeValue) {
  return useQuery({
    queryKey: healthKeys.graph(id, timeRangeToParam(timeRange)),
    queryFn: ({ signal }) => {
      const range = timeRangeToApi(timeRange) ?? { start: '1h' };
      const query = new URLSearchParams({ check: id, ...range });
      return api.get(`/api/canary/api/graph?${query.toString()}`, (data) => graphAnswerSchema.parse(data), { signal });
    },
    placeholderData: keepPreviousData,
  });
}

export interface HistoryPage {
  rows: CheckStatus[];
  total: number;
}

/**
 * The History tab (spec §5, §9): raw results in the range, newest first, pages of 50, and only those
 * lasting at least `minDuration` ms when that is above 0 (`duration=gte.N`).
 */
export function useCheckHistory(id: string, timeRange: TimeRangeValue, minDuration: number, pageIndex: number) {
  return useQuery({
    queryKey: healthKeys.history(id, { range: timeRangeToParam(timeRange), minDuration, pageIndex }),
    queryFn: async ({ signal }): Promise<HistoryPage> => {
      let query = db.from('check_statuses').select(CHECK_STATUS_COLUMNS, { count: 'exact' }).eq('check_id', id);
      const bounds = safeResolve(timeRange);
      if (bounds) query = query.gte('time', bounds.from.toISOString()).lte('time', bounds.to.toISOString());
      if (minDuration > 0) query = query.gte('duration', minDuration);
      const first = pageIndex * CHECK_STATUS_HISTORY_PAGE_SIZE;
      const { data, error, count } = await query.order('time', { ascending: false }).range(first, first + CHECK_STATUS_HISTORY_PAGE_SIZE - 1).abortSignal(signal);
      if (error) throw dbError(error);
      const rows = z.array(checkStatusSchema).parse(data ?? []);
      return { rows, total: count ?? rows.length };
    },
    placeholderData: keepPreviousData,
  });
}

function safeResolve(timeRange: TimeRangeValue) {
  try {
    return resolveTimeRange(timeRange);
  } catch (error) {
    console.warn(error);
    return null;
  }
}

/** Components and configs the check is related to (spec §2: the Relationships tab and its count). */
export function useCheckRelationships(id: string) {
  return useQuery({
    queryKey: healthKeys.relationships(id),
    queryFn: async ({ signal }) => {
      const [components, configs] = await Promise.all([
        db.from('check_component_relationships').select('component_id,selector_id,components(name,type)').eq('check_id', id).is('deleted_at', null).abortSignal(signal),
        db.from('check_config_relationships').select('config_id,selector_id,config_items(name,type)').eq('check_id', id).is('deleted_at', null).abortSignal(signal),
      ]);
      if (components.error) throw dbError(components.error);
      if (configs.error) throw dbError(configs.error);
      const list = z.array(relationshipSchema);
      return { components: list.parse(components.data ?? []), configs: list.parse(configs.data ?? []) };
    },
  });
}

const aboutSchema = z.object({ check_types: z.array(z.object({ type: z.string(), push: z.boolean() })) });

/** Check types whose results arrive (webhooks): Run Now cannot run them (GET /api/canary/about). */
export function usePushCheckTypes() {
  return useQuery({
    queryKey: healthKeys.about(),
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: ({ signal }) => api.get('/api/canary/about', (data) => aboutSchema.parse(data), { signal }),
    select: (about) => new Set(about.check_types.filter((type) => type.push).map((type) => type.type)),
  });
}

/**
 * Run Now (POST /api/canary/run/check/{id}): the answer is the new result; afterwards every health query
 * (the list, this check's stats, graph and history) is fetched again.
 */
export function useRunCheck(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (): Promise<RunResult> => api.post(`/api/canary/run/check/${encodeURIComponent(id)}`, {}, (data) => runResultSchema.parse(data), { timeoutMs: 11 * 60_000 }),
    onSuccess: () => client.invalidateQueries({ queryKey: healthKeys.all }),
  });
}
