import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';

export const integrationKeys = {
  all: ['integrations'] as const,
  list: () => ['integrations', 'list'] as const,
  chart: (name: string) => ['integrations', 'chart', name] as const,
};

export const INTEGRATION_COLUMNS =
  'id,name,namespace,description,integration_type,type,source,agent_id,agent,created_at,updated_at,health,job_status,job_time_start,job_error_count,job_error';

export const integrationRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  description: z.string().nullable(),
  integration_type: z.string(),
  type: z.string().nullable(),
  source: z.string(),
  agent_id: z.string(),
  agent: z.object({ id: z.string().nullable(), name: z.string().nullable() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  health: z.string(),
  job_status: z.string().nullable(),
  job_time_start: z.string().nullable(),
  job_error_count: z.number().nullable(),
  job_error: z.string().nullable(),
});
export type IntegrationRow = z.infer<typeof integrationRowSchema>;

/** Spec §7 /integrations_with_status: every integration with its health and last run. */
export function useIntegrations() {
  return useQuery({
    queryKey: integrationKeys.list(),
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('integrations_with_status').select(INTEGRATION_COLUMNS).order('name', { ascending: true }).limit(1000).abortSignal(signal);
      if (error) throw new Error(error.message, { cause: error });
      return z.array(integrationRowSchema).parse(data ?? []);
    },
  });
}

const chartSchema = z.object({
  name: z.string(),
  chart: z.object({ name: z.string(), version: z.string(), description: z.string().optional(), appVersion: z.string().optional() }),
  schema: z.record(z.string(), z.unknown()),
  repository: z.object({ name: z.string(), url: z.string() }),
  source: z.enum(['shipped', 'registry']),
  registry: z.string().optional(),
  note: z.string().optional(),
});
export type ChartAnswer = z.infer<typeof chartSchema>;

/** GET /api/integrations/charts/{name}: the chart's Chart.yaml and values schema (spec §7 GitOps wizard). */
export function useChart(name: string | undefined) {
  return useQuery({
    queryKey: integrationKeys.chart(name ?? ''),
    enabled: Boolean(name),
    staleTime: 5 * 60_000,
    queryFn: ({ signal }) => api.get(`/api/integrations/charts/${encodeURIComponent(name ?? '')}`, (data) => chartSchema.parse(data), { signal }),
  });
}
