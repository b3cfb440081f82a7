import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { LOOKUP_STALE_TIME_MS } from '@common/constants';
import { sidebarViewsKey } from '@web/app/layout/sidebar-views';
import { jsonSchemaSchema } from '@web/features/canaries/model/json-schema';
import { VALIDATE_DEBOUNCE_MS } from '@web/features/canaries/queries';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';
import { ilikeAny } from '@web/lib/search';
import { toast } from '@web/lib/toast';
import { useDebouncedValue } from '@web/lib/use-debounced-value';
import { fail, viewSettingsKeys, type ViewListQuery } from './keys';
import { saveAnswerSchema, SUMMARY_COLUMNS, validationSchema, VIEW_COLUMNS, viewRowSchema, viewSummarySchema } from './schema';

/** One page of views (views_summary), searched by name, namespace and title, with the total (count=exact). */
export function useViewList(query: ViewListQuery) {
  return useQuery({
    queryKey: viewSettingsKeys.list(query),
    queryFn: async ({ signal }) => {
      let request = db.from('views_summary').select(SUMMARY_COLUMNS, { count: 'exact' });
      const term = query.search.trim();
      if (term !== '') request = request.or(ilikeAny(['name', 'namespace', 'title'], term));
      const start = query.pageIndex * query.pageSize;
      request = request.order(query.sortBy, { ascending: !query.desc, nullsFirst: false });
      // A stable order within equal values, so pages do not overlap.
      if (query.sortBy !== 'name') request = request.order('name');
      const { data, error, count } = await request.order('id').range(start, start + query.pageSize - 1).abortSignal(signal);
      fail(error);
      return { rows: z.array(viewSummarySchema).parse(data ?? []), total: count ?? 0 };
    },
    placeholderData: keepPreviousData,
  });
}

/** One live view (null when there is none). */
export function useViewRow(id: string | undefined) {
  return useQuery({
    queryKey: viewSettingsKeys.one(id ?? ''),
    enabled: Boolean(id),
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('views').select(VIEW_COLUMNS).eq('id', id ?? '').is('deleted_at', null).abortSignal(signal).maybeSingle();
      fail(error);
      return data === null ? null : viewRowSchema.parse(data);
    },
  });
}

export interface ViewWrite {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
}

/** POST /api/views (new) or PUT /api/views/{id}; a 400 is shown in the editor, not toasted. */
export function useSaveView(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (write: ViewWrite) =>
      id ? api.put(`/api/views/${encodeURIComponent(id)}`, { spec: write.spec, labels: write.labels }, saveAnswerSchema.parse) : api.post('/api/views', write, saveAnswerSchema.parse),
    meta: { toast: false },
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: viewSettingsKeys.all }), client.invalidateQueries({ queryKey: sidebarViewsKey })]),
  });
}

/** DELETE /api/views/{id}; spec §8: '{name} deleted successfully'. */
export function useDeleteView() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; name: string }) => api.delete(`/api/views/${encodeURIComponent(id)}`, () => undefined),
    onSuccess: (_data, { name }) => {
      toast.success(`${name} deleted successfully`);
      return Promise.all([client.invalidateQueries({ queryKey: viewSettingsKeys.all }), client.invalidateQueries({ queryKey: sidebarViewsKey })]);
    },
  });
}

/** The JSON schema of a View spec (GET /api/views/schema), for the Code tab's marks. */
export function useViewSchema(enabled: boolean) {
  return useQuery({
    queryKey: viewSettingsKeys.schema,
    enabled,
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: ({ signal }) => api.get('/api/views/schema', (data) => jsonSchemaSchema.parse(data), { signal }),
  });
}

/** The server's findings for the spec being edited (POST /api/views/validate), debounced; `current` when they are for this very spec. */
export function useViewValidation(spec: Record<string, unknown> | null) {
  const body = spec ? JSON.stringify({ spec }) : '';
  const debounced = useDebouncedValue(body, VALIDATE_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: viewSettingsKeys.validate(debounced),
    enabled: debounced !== '',
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => {
      const body: unknown = JSON.parse(debounced);
      return api.post('/api/views/validate', body, (data) => validationSchema.parse(data), { signal });
    },
  });
  const current = body !== '' && debounced === body && !query.isPlaceholderData && query.data !== undefined;
  return { data: query.data, current, error: query.error };
}
