import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { LOOKUP_STALE_TIME_MS, SETTINGS_LIST_LIMIT, SETTINGS_LIST_ORDER } from '@common/constants';
import { jsonSchemaSchema } from '@web/features/canaries/model/json-schema';
import { VALIDATE_DEBOUNCE_MS } from '@web/features/canaries/queries';
import { isFieldProblems } from '@web/features/settings/resources/queries';
import { jobHistoryKeys } from '@web/features/settings/jobs/queries';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';
import { toast } from '@web/lib/toast';
import { useDebouncedValue } from '@web/lib/use-debounced-value';
import { scraperApi } from './api';
import type { ScraperWrite } from './model/document';
import { scraperTypesOf } from './model/scraper-types';
import { SCRAPER_ITEM_COLUMNS, SCRAPER_SUMMARY_COLUMNS, scraperItemSchema, scraperSummarySchema, validationSchema, type RunResult } from './schema';

/** job_history of scraper runs (server/features/catalog/api.ts): resource type config_scraper. */
export const SCRAPER_RESOURCE_TYPE = 'config_scraper';

export const scraperKeys = {
  all: ['config_scrapers'] as const,
  list: () => ['config_scrapers', 'list'] as const,
  detail: (id: string) => ['config_scrapers', 'detail', id] as const,
  schema: ['config_scrapers', 'schema'] as const,
  validate: (body: string) => ['config_scrapers', 'validate', body] as const,
  items: (id: string, page: { pageIndex: number; pageSize: number }) => ['config_scrapers', 'items', id, page] as const,
};

function fail(error: { message: string } | null): void {
  if (error) throw new Error(error.message, { cause: error });
}

/**
 * The scrapers, newest first (spec §9: settings lists show 100 rows), each with its latest run and item
 * count: one request for the whole list (config_scrapers_summary).
 */
export function useScrapers() {
  return useQuery({
    queryKey: scraperKeys.list(),
    queryFn: async ({ signal }) => {
      const { data, error } = await db
        .from('config_scrapers_summary')
        .select(SCRAPER_SUMMARY_COLUMNS)
        .order(SETTINGS_LIST_ORDER.column, { ascending: SETTINGS_LIST_ORDER.ascending })
        .limit(SETTINGS_LIST_LIMIT)
        .abortSignal(signal);
      fail(error);
      return z.array(scraperSummarySchema).parse(data ?? []);
    },
  });
}

/** One scraper with its latest run and item count (the detail page's summary), or null. */
export function useScraper(id: string) {
  return useQuery({
    queryKey: scraperKeys.detail(id),
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('config_scrapers_summary').select(SCRAPER_SUMMARY_COLUMNS).eq('id', id).abortSignal(signal).maybeSingle();
      fail(error);
      return data === null ? null : scraperSummarySchema.parse(data);
    },
  });
}

/** The scraper types this server runs, from the JSON schema of a spec (GET /api/catalog/scrapers/schema). */
export function useScraperSchema() {
  return useQuery({
    queryKey: scraperKeys.schema,
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: async ({ signal }) => {
      const schema = await api.get('/api/catalog/scrapers/schema', (data) => jsonSchemaSchema.parse(data), { signal });
      return { schema, types: scraperTypesOf(schema) };
    },
  });
}

/**
 * What the server thinks of a spec, without saving it (POST /api/catalog/scrapers/validate), for the
 * spec being edited; `current` is false while the answer is for an older version of it.
 */
export function useScraperValidation(input: { namespace: string; spec: Record<string, unknown> } | null) {
  const body = input ? JSON.stringify({ namespace: input.namespace, spec: input.spec }) : '';
  const debounced = useDebouncedValue(body, VALIDATE_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: scraperKeys.validate(debounced),
    enabled: debounced !== '',
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => {
      const request: unknown = JSON.parse(debounced);
      return api.post('/api/catalog/scrapers/validate', request, (data) => validationSchema.parse(data), { signal });
    },
  });
  const current = body !== '' && debounced === body && !query.isPlaceholderData && query.data !== undefined;
  return { data: query.data, current, error: query.error };
}

/** One page of a scraper's items (configs whose scraper_id is this scraper), by type and name. */
export function useScraperItems(id: string, page: { pageIndex: number; pageSize: number }) {
  return useQuery({
    queryKey: scraperKeys.items(id, page),
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      const first = page.pageIndex * page.pageSize;
      const { data, error, count } = await db
        .from('configs')
        .select(SCRAPER_ITEM_COLUMNS, { count: 'exact' })
        .eq('scraper_id', id)
        .order('type')
        .order('name')
        .range(first, first + page.pageSize - 1)
        .abortSignal(signal);
      fail(error);
      const rows = z.array(scraperItemSchema).parse(data ?? []);
      return { rows, total: count ?? rows.length };
    },
  });
}

/** Saving refetches every scraper read; a refusal that names its fields is shown in place, not toasted. */
export function useSaveScraper(id: string | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (write: ScraperWrite) => scraperApi.save(write, id),
    meta: { toast: false },
    onError: (error) => {
      if (!isFieldProblems(error)) toast.error(error);
    },
    onSuccess: (saved) => {
      // Spec §8: '{resource} updated successfully'; a warning (an unsupported field) is not silence.
      toast.success(`Catalog Scraper ${id === null ? 'created' : 'updated'} successfully`);
      for (const warning of saved.warnings) toast.error(`Saved with a warning: ${warning}`);
      return client.invalidateQueries({ queryKey: scraperKeys.all });
    },
  });
}

/** Soft delete (spec §4); the scraper's items go with it. Spec §8: '{name} deleted successfully'. */
export function useDeleteScraper(id: string, name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => scraperApi.remove(id),
    onSuccess: () => {
      toast.success(`${name} deleted successfully`);
      return client.invalidateQueries({ queryKey: scraperKeys.all });
    },
  });
}

/** The toast text of a run: what it found and did. */
export function runSummaryText(name: string, result: RunResult): string {
  const counts = `${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged, ${result.deleted} deleted`;
  const found = `${result.changes} ${result.changes === 1 ? 'change' : 'changes'}, ${result.analysis} ${result.analysis === 1 ? 'insight' : 'insights'}`;
  const errors = result.errors.length > 0 ? `; ${result.errors.length} ${result.errors.length === 1 ? 'error' : 'errors'}: ${result.errors[0] ?? ''}` : '';
  return `${name}: ${counts}; ${found}${errors}`;
}

/**
 * Run Now (spec §2): a loading toast while it runs, then what the run did (an error toast when it
 * reported errors); the scraper's items, runs and the catalog are read again.
 */
export function useRunScraper(id: string, name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => scraperApi.run(id),
    meta: { toast: false },
    onMutate: () => toast.loading(`Running ${name}...`),
    onSettled: (_data, _error, _variables, loading) => {
      if (loading !== undefined) toast.dismiss(loading);
    },
    onError: (error) => toast.error(error),
    onSuccess: async (result) => {
      if (result.errors.length > 0) toast.error(runSummaryText(name, result));
      else toast.success(runSummaryText(name, result));
      await Promise.all([
        client.invalidateQueries({ queryKey: scraperKeys.all }),
        client.invalidateQueries({ queryKey: jobHistoryKeys.all }),
        client.invalidateQueries({ queryKey: ['catalog'] }),
      ]);
    },
  });
}
