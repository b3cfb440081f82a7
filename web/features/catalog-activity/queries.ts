import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { LOOKUP_STALE_TIME_MS } from '@common/constants';
import { db } from '@web/lib/db';

/**
 * Query keys of the change feed and insights; under 'catalog', so what refreshes the catalog (a scraper's
 * Run Now) refreshes these too.
 */
export const activityKeys = {
  all: ['catalog', 'activity'] as const,
  changes: (filters: object, scope: object) => ['catalog', 'activity', 'changes', filters, scope] as const,
  change: (id: string) => ['catalog', 'activity', 'change', id] as const,
  insights: (filters: object) => ['catalog', 'activity', 'insights', filters] as const,
  insight: (id: string) => ['catalog', 'activity', 'insight', id] as const,
  lookup: (name: 'config_types' | 'change_types' | 'config_tags' | 'analyzers') => ['catalog', 'activity', 'lookup', name] as const,
};

function fail(error: { message: string } | null): void {
  if (error) throw new Error(error.message, { cause: error });
}

/** Distinct values of a one-column lookup view (config_types, change_types), sorted. */
function useColumnLookup(name: 'config_types' | 'change_types', column: 'type' | 'change_type') {
  return useQuery({
    queryKey: activityKeys.lookup(name),
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from(name).select(column).order(column).abortSignal(signal);
      fail(error);
      return z
        .array(z.record(z.string(), z.unknown()))
        .parse(data ?? [])
        .map((row) => row[column])
        .filter((value): value is string => typeof value === 'string');
    },
  });
}

export const useConfigTypes = () => useColumnLookup('config_types', 'type');
export const useChangeTypes = () => useColumnLookup('change_types', 'change_type');

/** Tag keys and values of the catalog's items, for the tag filter (the first 1000, by key). */
export function useConfigTags() {
  return useQuery({
    queryKey: activityKeys.lookup('config_tags'),
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('config_tags').select('key,value').order('key').order('value').limit(1000).abortSignal(signal);
      fail(error);
      return z.array(z.object({ key: z.string(), value: z.string() })).parse(data ?? []);
    },
  });
}

/** Analyzers with their analysis type (config_analysis_analyzers), for the insight filters. */
export function useAnalyzers() {
  return useQuery({
    queryKey: activityKeys.lookup('analyzers'),
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('config_analysis_analyzers').select('analyzer,analysis_type').order('analyzer').abortSignal(signal);
      fail(error);
      return z.array(z.object({ analyzer: z.string(), analysis_type: z.string() })).parse(data ?? []);
    },
  });
}
