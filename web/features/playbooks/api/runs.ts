import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';
import { ilikeAny } from '@web/lib/search';
import { toast } from '@web/lib/toast';
import { followActions, isFinalStatus } from '../model/status';
import type { TargetKind } from '../model/params';
import { fail, playbookKeys } from './keys';
import { approvalSchema, RUN_COLUMNS, RUN_EMBEDS, runActionSchema, runAnswerSchema, runSchema, statusAnswerSchema, type PlaybookRun } from './schema';

/** Spec: the run page follows a run every 1.5 s until it reaches a final status. */
export const RUN_POLL_MS = 1500;

export interface RunFilters {
  playbook?: string | undefined;
  status?: string | undefined;
  /** A config item, component or check id: runs on it. */
  resource?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  pageIndex: number;
  pageSize: number;
}

/** One page of runs, newest first, with the total (Prefer: count=exact). */
export function useRuns(filters: RunFilters, options: { poll?: boolean } = {}) {
  return useQuery({
    queryKey: playbookKeys.runs(filters),
    queryFn: async ({ signal }) => {
      let request = db.from('playbook_runs').select(`${RUN_COLUMNS},${RUN_EMBEDS}`, { count: 'exact' });
      if (filters.playbook) request = request.eq('playbook_id', filters.playbook);
      if (filters.status) request = request.eq('status', filters.status);
      if (filters.resource) {
        const id = filters.resource;
        request = request.or(`config_id.eq.${id},component_id.eq.${id},check_id.eq.${id}`);
      }
      if (filters.from) request = request.gte('created_at', filters.from);
      if (filters.to) request = request.lte('created_at', filters.to);
      const start = filters.pageIndex * filters.pageSize;
      const { data, error, count } = await request.order('created_at', { ascending: false }).range(start, start + filters.pageSize - 1).abortSignal(signal);
      fail(error);
      return { rows: z.array(runSchema).parse(data ?? []), total: count ?? 0 };
    },
    placeholderData: keepPreviousData,
    // A list with runs under way follows them.
    refetchInterval: options.poll === false ? false : (query) => (query.state.data?.rows.some((run) => !isFinalStatus(run.status)) ? 3000 : false),
  });
}

/** One run; polled until it is final. */
export function useRun(id: string) {
  return useQuery({
    queryKey: playbookKeys.run(id),
    enabled: id !== '',
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('playbook_runs').select(`${RUN_COLUMNS},${RUN_EMBEDS}`).eq('id', id).abortSignal(signal).maybeSingle();
      fail(error);
      return data === null ? null : runSchema.parse(data);
    },
    refetchInterval: (query) => (query.state.data && isFinalStatus(query.state.data.status) ? false : RUN_POLL_MS),
  });
}

/** The run's actions with their artifacts (rpc get_playbook_run_actions); polled with the run. */
export function useRunActions(run: Pick<PlaybookRun, 'id' | 'status' | 'end_time'> | null | undefined) {
  const id = run?.id ?? '';
  return useQuery({
    queryKey: playbookKeys.actions(id),
    enabled: id !== '',
    queryFn: async ({ signal }) => {
      const { data, error } = await db.rpc('get_playbook_run_actions', { run_id: id }, { get: true }).abortSignal(signal);
      fail(error);
      return z.array(runActionSchema).parse(data ?? []);
    },
    refetchInterval: (query) => (run && followActions(run, query.state.data, query.state.dataUpdatedAt) ? RUN_POLL_MS : false),
  });
}

export function useApprovals(runId: string, poll: boolean) {
  return useQuery({
    queryKey: playbookKeys.approvals(runId),
    enabled: runId !== '',
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('playbook_approvals').select('id,run_id,person_id,team_id,created_at,person:people(id,name,email,avatar)').eq('run_id', runId).order('created_at').abortSignal(signal);
      fail(error);
      return z.array(approvalSchema).parse(data ?? []);
    },
    refetchInterval: poll ? RUN_POLL_MS : false,
  });
}

const runSpecSchema = z.object({ spec: z.unknown() });

/** The spec a run was asked with (its approvers), read while it waits for approval. */
export function useRunSpec(runId: string, enabled: boolean) {
  return useQuery({
    queryKey: playbookKeys.runSpec(runId),
    enabled: enabled && runId !== '',
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('playbook_runs').select('spec').eq('id', runId).abortSignal(signal).maybeSingle();
      fail(error);
      return data === null ? null : runSpecSchema.parse(data).spec;
    },
  });
}

function useRunAction<T>(path: (id: string) => string, parse: (data: unknown) => T, success: (answer: T) => string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) => api.post(path(runId), {}, parse),
    onSuccess: (answer) => {
      toast.success(success(answer));
      return client.invalidateQueries({ queryKey: playbookKeys.all });
    },
  });
}

/** POST /api/playbook/run/approve/{id}. */
export const useApproveRun = () => useRunAction((id) => `/api/playbook/run/approve/${encodeURIComponent(id)}`, statusAnswerSchema.parse, () => 'Run approved');
/** POST /api/playbook/run/cancel/{id}. */
export const useCancelRun = () => useRunAction((id) => `/api/playbook/run/cancel/${encodeURIComponent(id)}`, statusAnswerSchema.parse, () => 'Run cancelled');
/** POST /api/playbook/run/rerun/{id}: a new run with the same parameters. */
export const useRerun = () => useRunAction((id) => `/api/playbook/run/rerun/${encodeURIComponent(id)}`, runAnswerSchema.parse, () => 'Run started again');

const TABLES: Record<TargetKind, 'config_items' | 'components' | 'checks'> = { config: 'config_items', component: 'components', check: 'checks' };
const resourceRow = z.object({ id: z.string(), name: z.string().nullish(), type: z.string().nullish() });
export interface ResourceOption {
  id: string;
  kind: TargetKind;
  name: string;
  type: string;
}

/** Up to 20 resources of a kind whose name holds the text (spec §9: the caller waits 300 ms). */
export function useResourceSearch(kind: TargetKind, types: readonly string[], text: string) {
  return useQuery({
    queryKey: playbookKeys.resourceSearch(kind, types, text),
    enabled: text.trim() !== '',
    queryFn: async ({ signal }) => {
      let request = db.from(TABLES[kind]).select('id,name,type').or(ilikeAny(['name'], text.trim())).is('deleted_at', null);
      if (types.length > 0) request = request.in('type', [...types]);
      const { data, error } = await request.order('name').limit(20).abortSignal(signal);
      fail(error);
      return z.array(resourceRow).parse(data ?? []).map((row): ResourceOption => ({ id: row.id, kind, name: row.name ?? row.id, type: row.type ?? '' }));
    },
    placeholderData: keepPreviousData,
  });
}

/** The name of one resource, for a filter chip. */
export function useResourceName(id: string | undefined) {
  return useQuery({
    queryKey: playbookKeys.resourceName('any', id ?? ''),
    enabled: Boolean(id),
    queryFn: async () => {
      for (const kind of ['config', 'component', 'check'] as const) {
        const { data, error } = await db.from(TABLES[kind]).select('id,name,type').eq('id', id ?? '').maybeSingle();
        if (error || !data) continue;
        const row = resourceRow.parse(data);
        return { id: row.id, kind, name: row.name ?? row.id, type: row.type ?? '' } satisfies ResourceOption;
      }
      return null;
    },
  });
}
