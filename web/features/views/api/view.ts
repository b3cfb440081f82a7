import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { VIEW_TABLE_PAGE_SIZE } from '@common/constants';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';
import { containsPattern, filterKind, isAnswerPage, orderOf, type DefaultSort, type TableState } from '../model/table-state';
import type { Selection } from '../model/variables';
import { dbErrorMessage, viewErrorMessage } from './errors';
import { viewKeys } from './keys';
import { viewAnswerSchema, viewRefSchema, viewTabSchema, type ViewAnswer, type ViewColumn, type ViewRow } from './schema';

/** While the server refreshes a view in the background, the page asks again this often. */
export const REFRESH_POLL_MS = 1500;

const viewPath = (id: string) => `/api/view/${encodeURIComponent(id)}`;

async function postView(id: string, body: { variables: Selection; refresh?: boolean }, signal?: AbortSignal): Promise<ViewAnswer> {
  try {
    return await api.post(viewPath(id), body, viewAnswerSchema.parse, signal ? { signal } : undefined);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new Error(viewErrorMessage(error), { cause: error });
  }
}

/** The table state the rows of an answer will be read with, from the answer's columns (see useTableStateReader). */
export type RowsStateOf = (columns: readonly ViewColumn[], defaultSort: DefaultSort) => TableState;

/**
 * POST /api/view/{id} with the selection; polled while the answer says a refresh is running. With
 * `rowsState`, the table's page of rows is asked as soon as the answer is in, while the page renders it,
 * rather than once the table has mounted (the table's query then finds it in the cache or in flight).
 * When that page is the answer's own first page (default order, no filter), the answer's rows are it:
 * no second request.
 */
export function useViewAnswer(id: string, variables: Selection, rowsState?: RowsStateOf) {
  const client = useQueryClient();
  return useQuery({
    queryKey: viewKeys.answer(id, variables),
    enabled: id !== '',
    queryFn: async ({ signal }) => {
      const answer = await postView(id, { variables }, signal);
      if (rowsState && answer.table && answer.requestFingerprint && answer.columns.length > 0) {
        const state = rowsState(answer.columns, answer.sort);
        const query: RowsQuery = { table: answer.table, fingerprint: answer.requestFingerprint, columns: answer.columns, state, refreshedAt: answer.refreshedAt };
        if (answer.refreshedAt && isAnswerPage(state, answer.sort, answer.columns)) {
          client.setQueryData(rowsKey(query), { rows: answer.rows, total: answer.totalRows ?? answer.rows.length });
          return answer;
        }
        // Only when that page is not cached yet: a poll while refreshing does not read it again.
        void client.prefetchQuery({ queryKey: rowsKey(query), queryFn: ({ signal: rowsSignal }) => fetchRows(query, rowsSignal), staleTime: Infinity });
      }
      return answer;
    },
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.refreshing ? REFRESH_POLL_MS : false),
  });
}

/** Refresh now: POST with refresh:true; the answer replaces the cached one and the rows are read again. */
export function useRefreshView(id: string, variables: Selection) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => postView(id, { variables, refresh: true }),
    onSuccess: async (answer) => {
      client.setQueryData(viewKeys.answer(id, variables), answer);
      if (answer.table) await client.invalidateQueries({ queryKey: viewKeys.tableRows(answer.table) });
    },
  });
}

export interface RowsQuery {
  table: string;
  fingerprint: string;
  columns: readonly ViewColumn[];
  state: TableState;
  /** Bumps when the answer is refreshed, so rows follow a refresh. */
  refreshedAt: string | null | undefined;
}

const rowsKey = (query: RowsQuery | null) => viewKeys.rows(query?.table ?? '', query?.fingerprint ?? '', { state: query?.state, at: query?.refreshedAt });

async function fetchRows(query: RowsQuery, signal: AbortSignal): Promise<{ rows: ViewRow[]; total: number }> {
  let request = db.from(query.table).select('*', { count: 'exact' }).eq('request_fingerprint', query.fingerprint);
  for (const [name, values] of Object.entries(query.state.filters)) {
    const column = query.columns.find((c) => c.name === name);
    if (!column || values.length === 0) continue;
    const kind = filterKind(column);
    if (kind === 'multiselect') request = request.in(name, values);
    else if (kind === 'text' && values[0]) request = request.ilike(name, containsPattern(values[0]));
  }
  let ordered = request;
  for (const { column, ascending } of orderOf(query.state, query.columns)) ordered = ordered.order(column, { ascending, nullsFirst: false });
  const start = query.state.pageIndex * VIEW_TABLE_PAGE_SIZE;
  const { data, error, count, status, statusText } = await ordered.range(start, start + VIEW_TABLE_PAGE_SIZE - 1).abortSignal(signal);
  if (error) throw new Error(dbErrorMessage(error, status, statusText), { cause: error });
  return { rows: z.array(z.record(z.string(), z.unknown())).parse(data ?? []) satisfies ViewRow[], total: count ?? 0 };
}

/** One page (spec §9: view tables 50) of a view's rows through /api/db, with the total from Content-Range. */
export function useViewRows(query: RowsQuery | null) {
  return useQuery({
    queryKey: rowsKey(query),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    // A page is keyed by the refresh it was read after; a refresh (or Refresh) asks again.
    staleTime: Infinity,
    queryFn: ({ signal }) => (query ? fetchRows(query, signal) : { rows: [], total: 0 }),
  });
}

/** How many rows are read to offer a multiselect filter's values (PostgREST has no DISTINCT). */
export const FILTER_VALUES_SCAN = 1000;

/** The distinct values of a column for its multiselect filter, sorted. */
export function useColumnValues(table: string, fingerprint: string, column: string, enabled: boolean) {
  return useQuery({
    queryKey: viewKeys.values(table, fingerprint, column),
    enabled,
    staleTime: 60_000,
    queryFn: async ({ signal }) => {
      const { data, error, status, statusText } = await db
        .from(table)
        .select(column)
        .eq('request_fingerprint', fingerprint)
        .not(column, 'is', null)
        .order(column)
        .limit(FILTER_VALUES_SCAN)
        .abortSignal(signal);
      if (error) throw new Error(dbErrorMessage(error, status, statusText), { cause: error });
      const rows = z.array(z.record(z.string(), z.unknown())).parse(data ?? []);
      return [...new Set(rows.map((row) => String(row[column])))];
    },
  });
}

/** /view/{namespace}/{name} → the view's id (GET /api/view/by-name/…). */
export function useViewIdByName(namespace: string | undefined, name: string) {
  return useQuery({
    queryKey: viewKeys.byName(namespace ?? 'default', name),
    enabled: name !== '',
    queryFn: async ({ signal }) => {
      const path = namespace ? `/api/view/by-name/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}` : `/api/view/by-name/${encodeURIComponent(name)}`;
      try {
        return (await api.get(path, viewRefSchema.parse, { signal })).id;
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') throw error;
        throw new Error(viewErrorMessage(error), { cause: error });
      }
    },
    retry: false,
  });
}

/** GET /api/view/list?config_id: the views shown as tabs of a catalog item. */
export function useViewsForConfig(configId: string, enabled = true) {
  return useQuery({
    queryKey: viewKeys.forConfig(configId),
    enabled: enabled && configId !== '',
    staleTime: 300_000,
    queryFn: async ({ signal }) => {
      try {
        return await api.get(`/api/view/list?config_id=${encodeURIComponent(configId)}`, z.array(viewTabSchema).parse, { signal });
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') throw error;
        throw new Error(viewErrorMessage(error), { cause: error });
      }
    },
  });
}
