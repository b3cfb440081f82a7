import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { LOOKUP_STALE_TIME_MS } from '@common/constants';
import { api } from '@web/lib/api';
import { useDebouncedValue } from '@web/lib/use-debounced-value';
import { jsonSchemaSchema } from '@web/features/canaries/model/json-schema';
import { VALIDATE_DEBOUNCE_MS } from '@web/features/canaries/queries';
import { db } from '@web/lib/db';
import { ilikeAny } from '@web/lib/search';
import { toast } from '@web/lib/toast';
import { targetQuery, type RunTarget } from '../model/params';
import { fail, playbookKeys } from './keys';
import { PLAYBOOK_COLUMNS, paramsAnswerSchema, playbookSchema, runAnswerSchema, runnableSchema, saveAnswerSchema } from './schema';

/** Spec §9: list fetches are bounded; a console with more playbooks than this searches. */
export const PLAYBOOKS_FETCH_LIMIT = 500;
const CREATOR = 'creator:people(id,name,email,avatar)';

/** The live playbooks (soft-deleted ones are gone), by name. */
export function usePlaybooks(search: string) {
  return useQuery({
    queryKey: playbookKeys.list(search),
    queryFn: async ({ signal }) => {
      let request = db.from('playbooks').select(PLAYBOOK_COLUMNS).is('deleted_at', null);
      if (search.trim() !== '') request = request.or(ilikeAny(['name', 'title', 'description', 'category'], search.trim()));
      const { data, error } = await request.order('name').limit(PLAYBOOKS_FETCH_LIMIT).abortSignal(signal);
      fail(error);
      return z.array(playbookSchema).parse(data ?? []);
    },
    placeholderData: keepPreviousData,
  });
}

const nameSchema = z.object({ id: z.string(), name: z.string(), title: z.string().nullish() });

/** Names for pickers and filters (playbook_names). */
export function usePlaybookNames() {
  return useQuery({
    queryKey: playbookKeys.names,
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('playbook_names').select('id,name,title').order('name').limit(1000).abortSignal(signal);
      fail(error);
      return z.array(nameSchema).parse(data ?? []);
    },
  });
}

export function usePlaybook(id: string | undefined) {
  return useQuery({
    queryKey: playbookKeys.one(id ?? ''),
    enabled: Boolean(id),
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('playbooks').select(`${PLAYBOOK_COLUMNS},${CREATOR}`).eq('id', id ?? '').is('deleted_at', null).abortSignal(signal).maybeSingle();
      fail(error);
      return data === null ? null : playbookSchema.parse(data);
    },
  });
}

const lastRunSchema = z.object({ id: z.string(), playbook_id: z.string(), status: z.string(), created_at: z.string() });
export type LastRun = z.infer<typeof lastRunSchema>;
/** How many of the newest runs the list reads for each playbook's last run. */
export const LAST_RUNS_WINDOW = 1000;

/** The newest run of each playbook among the latest runs (one request for the whole list). */
export function useLastRuns() {
  return useQuery({
    queryKey: playbookKeys.lastRuns,
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('playbook_runs').select('id,playbook_id,status,created_at').order('created_at', { ascending: false }).limit(LAST_RUNS_WINDOW).abortSignal(signal);
      fail(error);
      const latest = new Map<string, LastRun>();
      for (const run of z.array(lastRunSchema).parse(data ?? [])) if (!latest.has(run.playbook_id)) latest.set(run.playbook_id, run);
      return latest;
    },
  });
}

/** GET /api/playbook/list: the playbooks runnable on a resource (all of them without one). */
export function useRunnablePlaybooks(target: RunTarget | undefined, enabled = true) {
  const query = targetQuery(target);
  return useQuery({
    queryKey: playbookKeys.runnable(query),
    enabled,
    queryFn: ({ signal }) => api.get(`/api/playbook/list${searchOf(query)}`, z.array(runnableSchema).parse, { signal }),
  });
}

function searchOf(query: Record<string, string>): string {
  const text = new URLSearchParams(query).toString();
  return text ? `?${text}` : '';
}

/** GET /api/playbook/{id}/params: the parameters with their defaults rendered for the resource. */
export function useRunParams(id: string | undefined, target: RunTarget | undefined, enabled: boolean) {
  const query = targetQuery(target);
  return useQuery({
    queryKey: playbookKeys.params(id ?? '', query),
    enabled: enabled && Boolean(id),
    queryFn: ({ signal }) => api.get(`/api/playbook/${encodeURIComponent(id ?? '')}/params${searchOf(query)}`, paramsAnswerSchema.parse, { signal }),
    retry: false,
  });
}

export interface RunRequest {
  id: string;
  config_id?: string;
  component_id?: string;
  check_id?: string;
  params: Record<string, string>;
}

/** POST /api/playbook/run; the dialog shows a refusal itself (spec §8), so no toast here. */
export function useRunPlaybook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: RunRequest) => api.post('/api/playbook/run', request, runAnswerSchema.parse),
    meta: { toast: false },
    onSuccess: () => client.invalidateQueries({ queryKey: playbookKeys.all }),
  });
}

export interface PlaybookWrite {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
}

/** POST /api/playbooks (new) or PUT /api/playbooks/{id}; a 400 is shown in the editor, not toasted. */
export function useSavePlaybook(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (write: PlaybookWrite) =>
      id ? api.put(`/api/playbooks/${encodeURIComponent(id)}`, { spec: write.spec, labels: write.labels }, saveAnswerSchema.parse) : api.post('/api/playbooks', write, saveAnswerSchema.parse),
    meta: { toast: false },
    onSuccess: () => client.invalidateQueries({ queryKey: playbookKeys.all }),
  });
}

/** DELETE /api/playbooks/{id}; spec §8: '{name} deleted successfully'. */
export function useDeletePlaybook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; name: string }) => api.delete(`/api/playbooks/${encodeURIComponent(id)}`, () => undefined),
    onSuccess: (_data, { name }) => {
      toast.success(`${name} deleted successfully`);
      return client.invalidateQueries({ queryKey: playbookKeys.all });
    },
  });
}

/** The JSON schema of a Playbook spec (GET /api/playbook/schema), for the Code tab's marks. */
export function usePlaybookSchema(enabled: boolean) {
  return useQuery({
    queryKey: playbookKeys.schema,
    enabled,
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: ({ signal }) => api.get('/api/playbook/schema', (data) => jsonSchemaSchema.parse(data), { signal }),
  });
}

const validationSchema = z.object({ errors: z.array(z.object({ path: z.string(), message: z.string() })), warnings: z.array(z.string()) });

/** The server's findings for the spec being edited (POST /api/playbook/validate), debounced; `current` when they are for this very spec. */
export function usePlaybookValidation(spec: Record<string, unknown> | null) {
  const body = spec ? JSON.stringify({ spec }) : '';
  const debounced = useDebouncedValue(body, VALIDATE_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: playbookKeys.validate(debounced),
    enabled: debounced !== '',
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => {
      const spec: unknown = JSON.parse(debounced);
      return api.post('/api/playbook/validate', spec, (data) => validationSchema.parse(data), { signal });
    },
  });
  const current = body !== '' && debounced === body && !query.isPlaceholderData && query.data !== undefined;
  return { data: query.data, current, error: query.error };
}
