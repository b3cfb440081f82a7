import { LOOKUP_STALE_TIME_MS } from '@common/constants';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';
import { buildConfigsQuery, type summaryBody, type ListQuery } from '../list/query';
import { dbError } from './db-error';
import { catalogKeys } from './keys';
import { configListItemSchema, summaryGroupSchema, type ConfigListItem } from './schema';

export interface ConfigPage {
  rows: ConfigListItem[];
  total: number;
}

/** One page of items (spec §7: count=exact, the total read from Content-Range). */
export function useConfigList(filters: ListQuery, enabled = true) {
  return useQuery({
    queryKey: catalogKeys.list(filters),
    enabled,
    queryFn: async ({ signal }): Promise<ConfigPage> => {
      const { data, error, count } = await buildConfigsQuery(db, filters).abortSignal(signal);
      if (error) throw dbError(error);
      const rows = z.array(configListItemSchema).parse(data ?? []);
      return { rows, total: count ?? rows.length };
    },
    placeholderData: keepPreviousData,
  });
}

export const SUMMARY_PATH = '/api/catalog/summary';

/** POST /api/catalog/summary: items per type (or tag value) with health, statuses, changes and insights. */
export function useCatalogSummary(body: ReturnType<typeof summaryBody>, enabled = true) {
  return useQuery({
    queryKey: catalogKeys.summary(body),
    enabled,
    queryFn: ({ signal }) => api.post(SUMMARY_PATH, body, (data) => z.array(summaryGroupSchema).parse(data), { signal }),
    placeholderData: keepPreviousData,
  });
}

const keyValueRows = z.array(z.object({ key: z.string(), value: z.coerce.string() }));

/** Key → values of a distinct key/value view, keys and values sorted. */
export function groupKeyValues(rows: readonly { key: string; value: string }[]): { key: string; values: string[] }[] {
  const byKey = new Map<string, Set<string>>();
  for (const row of rows) byKey.set(row.key, (byKey.get(row.key) ?? new Set()).add(row.value));
  return [...byKey.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, values]) => ({ key, values: [...values].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })) }));
}

function useKeyValues(relation: 'config_tags' | 'config_labels', name: 'tags' | 'labels') {
  return useQuery({
    queryKey: catalogKeys.lookup(name),
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from(relation).select('key,value').abortSignal(signal);
      if (error) throw dbError(error);
      return groupKeyValues(keyValueRows.parse(data ?? []));
    },
  });
}

/** The tag keys and values of live items (config_tags), for the filters and the summary's Group By. */
export const useConfigTags = () => useKeyValues('config_tags', 'tags');
/** The label keys and values of live items (config_labels). */
export const useConfigLabels = () => useKeyValues('config_labels', 'labels');

function useDistinct(relation: 'config_types' | 'config_statuses', column: 'type' | 'status', name: 'types' | 'statuses') {
  return useQuery({
    queryKey: catalogKeys.lookup(name),
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from(relation).select(column).abortSignal(signal);
      if (error) throw dbError(error);
      const values = z.array(z.record(z.string(), z.unknown())).parse(data ?? []).map((row) => row[column]);
      return values.filter((value): value is string => typeof value === 'string').sort((a, b) => a.localeCompare(b));
    },
  });
}

export const useConfigTypes = () => useDistinct('config_types', 'type', 'types');
export const useConfigStatuses = () => useDistinct('config_statuses', 'status', 'statuses');
