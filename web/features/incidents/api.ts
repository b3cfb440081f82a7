import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';
import { ilikeAny } from '@web/lib/search';

/** Query keys of the incidents area, all under `incidentKeys.all`. */
export const incidentKeys = {
  all: ['incidents'] as const,
  list: (query: object) => ['incidents', 'list', query] as const,
  search: (term: string) => ['incidents', 'search', term] as const,
  detail: (id: string) => ['incidents', 'detail', id] as const,
  hypotheses: (id: string) => ['incidents', 'detail', id, 'hypotheses'] as const,
  timeline: (id: string) => ['incidents', 'detail', id, 'timeline'] as const,
  hypothesisSearch: (incident: string, term: string) => ['incidents', 'hypotheses', incident, term] as const,
};

/** A PostgREST error answer as an Error with the server's own sentence. */
function dbError(error: { message: string }): Error {
  return new Error(error.message, { cause: error });
}

const personRef = z.object({ id: z.string(), name: z.string().nullable(), email: z.string().nullable(), avatar: z.string().nullable().optional() }).nullable();
export type PersonRef = z.infer<typeof personRef>;

export const incidentRowSchema = z.object({
  id: z.string(),
  incident_id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  type: z.string(),
  status: z.string(),
  severity: z.string(),
  commander_id: z.string().nullable(),
  communicator_id: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  investigating_at: z.string().nullable(),
  mitigated_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  commander: personRef,
  creator: personRef,
  responders: z.array(z.object({ id: z.string(), type: z.string(), person_id: z.string().nullable(), team_id: z.string().nullable(), name: z.string().nullable() })),
  hypotheses: z.number(),
  evidences: z.number(),
  comments: z.number(),
});
export type IncidentRow = z.infer<typeof incidentRowSchema>;
const ROW_COLUMNS =
  'id,incident_id,title,description,type,status,severity,commander_id,communicator_id,created_by,created_at,updated_at,investigating_at,mitigated_at,resolved_at,closed_at,commander,creator,responders,hypotheses,evidences,comments';

export interface IncidentListQuery {
  status: string[];
  severity: string[];
  type: string[];
  commander?: string;
  component?: string;
  search: string;
  sortBy: string;
  sortOrder: 'asc' | 'desc';
  pageIndex: number;
  pageSize: number;
}

/** One page of incidents (incident_summary) with the total (count=exact), filtered and sorted on the server. */
export function useIncidentList(query: IncidentListQuery) {
  return useQuery({
    queryKey: incidentKeys.list(query),
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      let request = db.from('incident_summary').select(ROW_COLUMNS, { count: 'exact' });
      if (query.status.length > 0) request = request.in('status', query.status);
      if (query.severity.length > 0) request = request.in('severity', query.severity);
      if (query.type.length > 0) request = request.in('type', query.type);
      if (query.commander) request = request.eq('commander_id', query.commander);
      if (query.component) request = request.contains('component_ids', [query.component]);
      if (query.search.trim()) request = request.or(ilikeAny(['title', 'incident_id', 'description'], query.search.trim()));
      const from = query.pageIndex * query.pageSize;
      const { data, error, count } = await request
        .order(query.sortBy, { ascending: query.sortOrder === 'asc' })
        .order('created_at', { ascending: false })
        .range(from, from + query.pageSize - 1)
        .abortSignal(signal);
      if (error) throw dbError(error);
      const rows = z.array(incidentRowSchema).parse(data ?? []);
      return { rows, total: count ?? rows.length };
    },
  });
}

/** One incident with its people and counts; null when there is no such incident. */
export function useIncident(id: string) {
  return useQuery({
    queryKey: incidentKeys.detail(id),
    enabled: id !== '',
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('incident_summary').select(ROW_COLUMNS).eq('id', id).abortSignal(signal).maybeSingle();
      if (error) throw dbError(error);
      return data ? incidentRowSchema.parse(data) : null;
    },
  });
}

export const incidentOptionSchema = z.object({ id: z.string(), incident_id: z.string(), title: z.string(), status: z.string(), severity: z.string() });
export type IncidentOption = z.infer<typeof incidentOptionSchema>;

/** Spec §7 lookup: incidents by search text (newest first), for the link dialog. */
export function useIncidentSearch(term: string, enabled = true) {
  return useQuery({
    queryKey: incidentKeys.search(term),
    enabled,
    queryFn: async ({ signal }) => {
      let request = db.from('incidents').select('id,incident_id,title,status,severity');
      if (term) request = request.or(ilikeAny(['title', 'incident_id'], term));
      const { data, error } = await request.order('created_at', { ascending: false }).limit(20).abortSignal(signal);
      if (error) throw dbError(error);
      return z.array(incidentOptionSchema).parse(data ?? []);
    },
  });
}

export const evidenceSchema = z.object({
  id: z.string(),
  hypothesis_id: z.string(),
  type: z.string(),
  description: z.string().nullable(),
  evidence: z.record(z.string(), z.unknown()),
  check_id: z.string().nullable(),
  config_id: z.string().nullable(),
  config_change_id: z.string().nullable(),
  config_analysis_id: z.string().nullable(),
  component_id: z.string().nullable(),
  definition_of_done: z.boolean(),
  done: z.boolean(),
  created_at: z.string(),
  created_by: personRef.optional(),
});
export type Evidence = z.infer<typeof evidenceSchema>;

export const commentSchema = z.object({
  id: z.string(),
  hypothesis_id: z.string().nullable(),
  comment: z.string(),
  created_at: z.string(),
  created_by: personRef,
});
export type Comment = z.infer<typeof commentSchema>;

export const hypothesisSchema = z.object({
  id: z.string(),
  parent_id: z.string().nullable(),
  type: z.string(),
  title: z.string(),
  status: z.string(),
  created_at: z.string(),
  created_by: personRef,
  evidences: z.array(evidenceSchema),
  comments: z.array(commentSchema),
});
export type Hypothesis = z.infer<typeof hypothesisSchema>;

const PERSON = 'id,name,email,avatar';

/** The hypotheses of an incident with their evidence and comments (one /api/db read with embeds). */
export function useHypotheses(incidentId: string) {
  return useQuery({
    queryKey: incidentKeys.hypotheses(incidentId),
    enabled: incidentId !== '',
    queryFn: async ({ signal }) => {
      const { data, error } = await db
        .from('hypotheses')
        .select(
          `id,parent_id,type,title,status,created_at,created_by:people!hypotheses_created_by_fkey(${PERSON}),` +
            `evidences(id,hypothesis_id,type,description,evidence,check_id,config_id,config_change_id,config_analysis_id,component_id,definition_of_done,done,created_at,created_by:people!evidences_created_by_fkey(${PERSON})),` +
            `comments(id,hypothesis_id,comment,created_at,created_by:people!comments_created_by_fkey(${PERSON}))`,
        )
        .eq('incident_id', incidentId)
        .order('created_at')
        .order('created_at', { referencedTable: 'evidences' })
        .order('created_at', { referencedTable: 'comments' })
        .abortSignal(signal);
      if (error) throw dbError(error);
      return z.array(hypothesisSchema).parse(data ?? []);
    },
  });
}

export const historySchema = z.object({
  id: z.string(),
  type: z.string(),
  description: z.string().nullable(),
  hypothesis_id: z.string().nullable(),
  created_at: z.string(),
  created_by: personRef,
});
export type HistoryRow = z.infer<typeof historySchema>;

/** The timeline (incident_histories, written by the server), oldest first. */
export function useTimeline(incidentId: string) {
  return useQuery({
    queryKey: incidentKeys.timeline(incidentId),
    queryFn: async ({ signal }) => {
      const { data, error } = await db
        .from('incident_histories')
        .select(`id,type,description,hypothesis_id,created_at,created_by:people!incident_histories_created_by_fkey(${PERSON})`)
        .eq('incident_id', incidentId)
        .order('created_at')
        .limit(1000)
        .abortSignal(signal);
      if (error) throw dbError(error);
      return z.array(historySchema).parse(data ?? []);
    },
  });
}

/** Spec §7 lookup: the hypotheses of an incident by search text, for the link dialog. */
export function useHypothesisSearch(incidentId: string, term: string) {
  return useQuery({
    queryKey: incidentKeys.hypothesisSearch(incidentId, term),
    enabled: incidentId !== '',
    queryFn: async ({ signal }) => {
      let request = db.from('hypotheses').select('id,title,type,status').eq('incident_id', incidentId);
      if (term) request = request.ilike('title', `%${term}%`);
      const { data, error } = await request.order('created_at').limit(50).abortSignal(signal);
      if (error) throw dbError(error);
      return z.array(z.object({ id: z.string(), title: z.string(), type: z.string(), status: z.string() })).parse(data ?? []);
    },
  });
}

type Table = 'incidents' | 'hypotheses' | 'evidences' | 'comments' | 'responders';

async function write(table: Table, method: 'insert' | 'update' | 'delete', values: Record<string, unknown> | undefined, id?: string): Promise<{ id: string } | undefined> {
  const from = db.from(table);
  if (method === 'insert') {
    const { data, error } = await from.insert(values ?? {}).select('id').single();
    if (error) throw dbError(error);
    return z.object({ id: z.string() }).parse(data);
  }
  if (!id) throw new Error(`${method} needs an id`);
  const { error } = method === 'update' ? await from.update(values ?? {}).eq('id', id) : await from.delete().eq('id', id);
  if (error) throw dbError(error);
  return undefined;
}

/** A write to one incident's rows; afterwards the incident, its hypotheses, timeline and the lists reload. */
export function useIncidentWrite(incidentId?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ table, method, values, id }: { table: Table; method: 'insert' | 'update' | 'delete'; values?: Record<string, unknown>; id?: string }) => write(table, method, values, id),
    onSettled: () => client.invalidateQueries({ queryKey: incidentId ? incidentKeys.detail(incidentId) : incidentKeys.all }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['incidents', 'list'] }),
  });
}

export const linkResultSchema = z.object({
  incident_id: z.string(),
  incident_number: z.string(),
  hypothesis_id: z.string(),
  evidence_id: z.string(),
  created_incident: z.boolean(),
  created_hypothesis: z.boolean(),
});
export type LinkResult = z.infer<typeof linkResultSchema>;

export interface LinkRequest {
  incident: { id?: string; title?: string; description?: string; type?: string; severity?: string };
  hypothesis: { id?: string; title?: string };
  evidence: {
    type: string;
    description?: string;
    check_id?: string;
    config_id?: string;
    config_change_id?: string;
    config_analysis_id?: string;
    component_id?: string;
    evidence?: Record<string, unknown>;
  };
}

/** POST /api/incidents/link: incident, hypothesis and evidence in one transaction. */
export const linkEvidence = (body: LinkRequest) => api.post('/api/incidents/link', body, (data) => linkResultSchema.parse(data));
