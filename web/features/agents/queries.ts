import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';
import { toast } from '@web/lib/toast';
import { JOB_HISTORY_COLUMNS, jobHistorySchema } from '@web/features/settings/jobs/schema';
import type { JobHistoryPage } from '@web/features/settings/jobs/queries';
import { deletedText } from './model';
import { buildAgentJobsQuery, buildAgentsQuery, type AgentsQuery } from './query';
import { AGENT_SUMMARY_COLUMNS, agentSummarySchema, deletedAgentSchema, generatedAgentSchema, LOCAL_AGENT_ID, type GeneratedAgent } from './schema';

export const agentKeys = {
  all: ['agents'] as const,
  list: (query: AgentsQuery) => ['agents', 'list', query] as const,
  detail: (id: string) => ['agents', 'detail', id] as const,
  jobs: (id: string, page: { pageIndex: number; pageSize: number }) => ['agents', 'jobs', id, page] as const,
};

function fail(error: { message: string } | null): void {
  if (error) throw new Error(error.message, { cause: error });
}

/** How often the list and the detail re-read the summary, so health and last seen stay current. */
const REFRESH_MS = 30_000;

export function useAgents(query: AgentsQuery) {
  return useQuery({
    queryKey: agentKeys.list(query),
    queryFn: async ({ signal }) => {
      const { data, error, count } = await buildAgentsQuery(db, query).abortSignal(signal);
      fail(error);
      const rows = z.array(agentSummarySchema).parse(data ?? []);
      return { rows, total: count ?? rows.length };
    },
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
}

/**
 * One agent of agents_summary; null when there is none with this id (deleted). The local agent (the nil
 * uuid, which Jobs History links every local run to) is not in agents_summary: GET /api/agent/local.
 */
export function useAgent(id: string) {
  return useQuery({
    queryKey: agentKeys.detail(id),
    queryFn: async ({ signal }) => {
      if (id === LOCAL_AGENT_ID) return api.get('/api/agent/local', (data) => agentSummarySchema.parse(data), { signal });
      const { data, error } = await db.from('agents_summary').select(AGENT_SUMMARY_COLUMNS).eq('id', id).abortSignal(signal).maybeSingle();
      fail(error);
      return data === null ? null : agentSummarySchema.parse(data);
    },
    refetchInterval: REFRESH_MS,
  });
}

/** The job runs an agent pushed up, newest first, in server pages. */
export function useAgentJobs(id: string, page: { pageIndex: number; pageSize: number }) {
  return useQuery({
    queryKey: agentKeys.jobs(id, page),
    queryFn: async ({ signal }): Promise<JobHistoryPage> => {
      const { data, error, count } = await buildAgentJobsQuery(db, id, page, JOB_HISTORY_COLUMNS).abortSignal(signal);
      fail(error);
      const rows = z.array(jobHistorySchema).parse(data ?? []);
      return { rows, total: count ?? rows.length };
    },
    placeholderData: keepPreviousData,
  });
}

export interface GenerateAgentInput {
  name: string;
  description?: string;
  properties?: Record<string, string>;
}

/**
 * POST /api/agent/generate: the agent (created, or reused for a known name) and a new agent-push token.
 * The dialog shows a 400 at its field, so this mutation does not toast it.
 */
export function useGenerateAgent() {
  const client = useQueryClient();
  return useMutation({
    meta: { toast: false },
    mutationFn: (input: GenerateAgentInput): Promise<GeneratedAgent> => api.post('/api/agent/generate', input, (data) => generatedAgentSchema.parse(data)),
    onSuccess: () => client.invalidateQueries({ queryKey: agentKeys.all }),
  });
}

/** DELETE /api/agent/{id}?cleanup=…; spec §4: with cleanup, the resources it pushed are soft-deleted too. */
export function useDeleteAgent(onDone: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, cleanup }: { id: string; name: string; cleanup: boolean }) =>
      api.delete(`/api/agent/${encodeURIComponent(id)}?cleanup=${cleanup ? 'true' : 'false'}`, (data) => deletedAgentSchema.parse(data)),
    onSuccess: (answer, { name }) => {
      toast.success(deletedText(name, answer.cleaned));
      onDone();
      return client.invalidateQueries({ queryKey: agentKeys.all });
    },
  });
}
