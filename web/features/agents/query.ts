import type { PostgrestClient } from '@supabase/postgrest-js';
import { ilikeAny } from '@web/lib/search';
import type { AgentFilters } from './filters';
import { AGENT_SUMMARY_COLUMNS } from './schema';

export type AgentsQuery = Omit<AgentFilters, 'pageSize' | 'id' | 'adding'> & { pageSize: number };

/** One page of agents_summary with the exact total (spec §7: count=exact, read from Content-Range). */
export function buildAgentsQuery(client: PostgrestClient, query: AgentsQuery) {
  let request = client.from('agents_summary').select(AGENT_SUMMARY_COLUMNS, { count: 'exact' });
  const search = query.search.trim();
  if (search !== '') request = request.or(ilikeAny(['name', 'hostname', 'description', 'version'], search));
  const first = query.pageIndex * query.pageSize;
  // The id breaks ties, so a page boundary never shows an agent twice or skips one.
  return request
    .order(query.sortBy, { ascending: query.sortOrder === 'asc', nullsFirst: false })
    .order('id')
    .range(first, first + query.pageSize - 1);
}

/** One page of the job runs an agent pushed (job_history whose agent_id is the agent), newest first. */
export function buildAgentJobsQuery(client: PostgrestClient, agentId: string, page: { pageIndex: number; pageSize: number }, columns: string) {
  const first = page.pageIndex * page.pageSize;
  return client
    .from('job_histories')
    .select(columns, { count: 'exact' })
    .eq('agent_id', agentId)
    .order('time_start', { ascending: false })
    .order('id')
    .range(first, first + page.pageSize - 1);
}
