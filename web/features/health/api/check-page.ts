import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@web/lib/api';
import type { TimeRangeValue } from '@web/ui/time-range';
import { ALL_TAB, NO_GROUP } from '../state/checks';
import type { LabelFilterEntry } from '../state/labels';
import { parseHealthParams, type HealthParams, type SortColumn } from '../state/params';
import { readStoredPageSize } from '@web/ui/data-table/page-size';
import { timeRangeFromParam, timeRangeToApi, timeRangeToParam } from '../state/time-range';
import { healthKeys } from './keys';
import { checkSummarySchema } from './schema';

/** The Health page's list (docs/HEALTH.md): one page of checks or groups, filtered and sorted on the server. */
export const CHECK_PAGE_PATH = '/api/health/checks';

/** Each listed check's newest results: its strip. */
export const STRIP_RESULTS = 20;

/** The page sizes offered under the table; the first is the default. */
export const CHECK_PAGE_SIZES = [50, 100, 200, 500] as const;

const toneSchema = z.enum(['healthy', 'unhealthy', 'mixed', 'unknown']);

export const checkGroupSchema = z.object({
  key: z.string(),
  count: z.number(),
  status: toneSchema,
  passing: z.number(),
  latency: z.number().nullable(),
  last_transition_time: z.string().nullable(),
});
export type CheckGroup = z.infer<typeof checkGroupSchema>;

const pivotSchema = z.object({
  rows: z.array(z.string()),
  columns: z.array(z.string()),
  totalRows: z.number(),
  totalColumns: z.number(),
  cells: z.array(
    z.object({
      row: z.number(),
      column: z.number(),
      count: z.number(),
      status: toneSchema,
      passed: z.number(),
      failed: z.number(),
      latency: z.number().nullable(),
      checks: z.array(z.object({ id: z.string(), name: z.string(), status: z.enum(['healthy', 'unhealthy']).nullable() })),
    }),
  ),
});

export const checkPageSchema = z.object({
  checks: z.array(checkSummarySchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  tabs: z.object({ all: z.number(), values: z.array(z.object({ value: z.string(), count: z.number() })) }),
  groups: z.object({ total: z.number(), items: z.array(checkGroupSchema) }).optional(),
  pivot: pivotSchema.optional(),
  labels: z.array(z.object({ key: z.string(), values: z.array(z.string()), boolean: z.boolean(), truncated: z.boolean().optional() })),
  from: z.string(),
  to: z.string(),
  source: z.enum(['raw', 'hourly', 'daily']),
  estimate: z.boolean(),
});
export type CheckPageAnswer = z.infer<typeof checkPageSchema>;

/** What the page asks the server: its filters from the URL, the chosen tab, and the page. */
export interface CheckPageRequest {
  /** The range as the URL writes it; resolved to start and end when asked (a quick range moves with now). */
  timeRange: string;
  query?: string;
  hidePassing: boolean;
  labels: LabelFilterEntry[];
  tabBy: string;
  tab?: string;
  groupBy: string;
  group?: string;
  sortBy: SortColumn;
  sortDesc: boolean;
  page: number;
  pageSize: number;
  recent: number;
  /** The pivot (docs/HEALTH.md "Pivot"): the answer carries the grid instead of a page of checks. */
  pivotBy?: string;
  pivotLabel?: string;
  /** One pivot cell: the answer is a page of its checks. */
  pivotCell?: { row: string; column: string };
}

/** The range as the server takes it (start and end), 1h by default. */
function rangeOf(timeRange: TimeRangeValue): { start: string; end?: string } {
  const range = timeRangeToApi(timeRange);
  return range ? { start: range.start, ...(range.end ? { end: range.end } : {}) } : { start: '1h' };
}

/** The request's body: the range resolved now. */
export function checkPageBody(request: CheckPageRequest): Record<string, unknown> {
  const { timeRange, ...rest } = request;
  return { ...rangeOf(timeRangeFromParam(timeRange)), ...rest };
}

/**
 * The request for the page's state: the table groups on the server (the cards and the pivot do not group),
 * and a tab other than All narrows it. `group` asks for the checks of one group. With pivotBy the server
 * answers the pivot (no page of checks, no strips); pivotCellRequest asks for a page of one cell's checks.
 */
export function checkPageRequest(
  state: Pick<HealthParams, 'timeRange' | 'query' | 'hidePassing' | 'labels' | 'tabBy' | 'groupBy' | 'sortBy' | 'sortDesc' | 'layout' | 'pivotBy' | 'pivotLabel'>,
  view: { tab: string; pageIndex: number; pageSize: number; group?: string },
): CheckPageRequest {
  const query = state.query.trim();
  if (state.pivotBy) {
    return {
      timeRange: timeRangeToParam(state.timeRange),
      ...(query ? { query } : {}),
      hidePassing: state.hidePassing,
      labels: state.labels,
      tabBy: state.tabBy,
      ...(view.tab !== ALL_TAB.value ? { tab: view.tab } : {}),
      groupBy: NO_GROUP,
      sortBy: state.sortBy,
      sortDesc: state.sortDesc,
      page: 0,
      pageSize: 1,
      recent: 0,
      pivotBy: state.pivotBy,
      ...(state.pivotLabel ? { pivotLabel: state.pivotLabel } : {}),
    };
  }
  return {
    timeRange: timeRangeToParam(state.timeRange),
    ...(query ? { query } : {}),
    hidePassing: state.hidePassing,
    labels: state.labels,
    tabBy: state.tabBy,
    ...(view.tab !== ALL_TAB.value ? { tab: view.tab } : {}),
    groupBy: state.layout === 'table' ? state.groupBy : NO_GROUP,
    ...(view.group !== undefined ? { group: view.group } : {}),
    sortBy: state.sortBy,
    sortDesc: state.sortDesc,
    page: view.pageIndex,
    pageSize: view.pageSize,
    recent: STRIP_RESULTS,
  };
}

/** A page of one pivot cell's checks (the pivot's request with the cell). */
export function pivotCellRequest(pivot: CheckPageRequest, cell: { row: string; column: string }, page: number, pageSize: number): CheckPageRequest {
  return { ...pivot, pivotCell: cell, page, pageSize };
}

export async function fetchCheckPage(request: CheckPageRequest, signal?: AbortSignal): Promise<CheckPageAnswer> {
  return api.post(CHECK_PAGE_PATH, checkPageBody(request), (data) => checkPageSchema.parse(data), signal ? { signal } : {});
}

/**
 * One page of the list. A refresh, a new range or a new search aborts the request in flight (React Query's
 * signal); the previous page stays on screen while the next one loads.
 */
export function useCheckPage(request: CheckPageRequest, refreshMs: number, enabled = true) {
  return useQuery({
    queryKey: healthKeys.page(request),
    queryFn: ({ signal }) => takePreloaded(request, signal) ?? fetchCheckPage(request, signal),
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs > 0 ? refreshMs : false,
    enabled,
  });
}

/** Where the chosen page size is kept in the browser. */
export const CHECK_PAGE_SIZE_KEY = 'watchkeeper.health.pageSize';

/** A request started while the page's code was still loading, waiting for the first query that asks the same. */
let preloaded: { key: string; answer: Promise<CheckPageAnswer>; controller: AbortController } | undefined;

/** Starts the list's first page as soon as the route begins to load (routes.ts), beside the page's code. */
export function preloadCheckPage(search: string): void {
  const state = parseHealthParams(new URLSearchParams(search));
  const request = checkPageRequest(state, { tab: ALL_TAB.value, pageIndex: 0, pageSize: readStoredPageSize(CHECK_PAGE_SIZES[0], CHECK_PAGE_SIZE_KEY) });
  const controller = new AbortController();
  const answer = fetchCheckPage(request, controller.signal);
  // Nobody may take it (the page shows something else first): its failure is not an unhandled one.
  answer.catch(() => undefined);
  preloaded = { key: JSON.stringify(request), answer, controller };
}

function takePreloaded(request: CheckPageRequest, signal: AbortSignal): Promise<CheckPageAnswer> | undefined {
  const entry = preloaded;
  preloaded = undefined;
  if (!entry) return undefined;
  if (entry.key !== JSON.stringify(request)) {
    entry.controller.abort();
    return undefined;
  }
  signal.addEventListener('abort', () => entry.controller.abort(), { once: true });
  return entry.answer;
}
