import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';

export const logKeys = {
  all: ['logs'] as const,
  search: (request: LogSearchRequest) => ['logs', 'search', request] as const,
  sources: ['logs', 'sources'] as const,
};

const lineSchema = z.object({
  id: z.string(),
  time: z.string(),
  message: z.string(),
  level: z.string().optional(),
  source: z.string(),
  labels: z.record(z.string(), z.string()),
});
export type LogLine = z.infer<typeof lineSchema>;

const answerSchema = z.object({
  results: z.array(lineSchema),
  total: z.number(),
  files: z.number(),
  truncated: z.array(z.string()),
  backends: z.array(z.string()),
  start: z.string(),
  end: z.string(),
  component: z.object({ id: z.string(), name: z.string(), type: z.string().nullable() }).optional(),
});
export type LogAnswer = z.infer<typeof answerSchema>;

export interface LogSearchRequest {
  /** A backend's name. */
  name?: string;
  /** A component's id. */
  id?: string;
  query: string;
  start: string;
  limit: number;
}

/** POST /api/logs: the lines of a backend or a component, newest first. */
export function useLogSearch(request: LogSearchRequest | undefined) {
  return useQuery({
    queryKey: request ? logKeys.search(request) : ['logs', 'search', 'none'],
    enabled: request !== undefined,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => api.post('/api/logs', request, (data) => answerSchema.parse(data), { signal, timeoutMs: 60_000 }),
  });
}

const backendSchema = z.object({ id: z.string(), name: z.string() });
const componentSchema = z.object({ id: z.string(), name: z.string(), type: z.string().nullable(), logs: z.array(backendSchema) });

/** What /logs can search: the backends by name and the components some backend holds the logs of. */
export function useLogSources() {
  return useQuery({
    queryKey: logKeys.sources,
    queryFn: async ({ signal }) => {
      const [backends, components] = await Promise.all([
        db.from('logging_backends').select('id,name').is('deleted_at', null).order('name').limit(500).abortSignal(signal),
        db.from('components_with_logs').select('id,name,type,logs').order('name').limit(1000).abortSignal(signal),
      ]);
      if (backends.error) throw new Error(backends.error.message);
      if (components.error) throw new Error(components.error.message);
      return { backends: z.array(backendSchema).parse(backends.data ?? []), components: z.array(componentSchema).parse(components.data ?? []) };
    },
  });
}

/** The backends that hold one component's logs (empty when none do), for the component page's Logs link. */
export function useComponentLogs(componentId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['logs', 'component', componentId],
    enabled,
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('components_with_logs').select('logs').eq('id', componentId).abortSignal(signal).maybeSingle();
      if (error) throw new Error(error.message);
      return data ? z.object({ logs: z.array(backendSchema) }).parse(data).logs : [];
    },
  });
}
