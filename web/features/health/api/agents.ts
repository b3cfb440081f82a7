import { LOOKUP_STALE_TIME_MS } from '@common/constants';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useAccess } from '@web/app/session';
import { db } from '@web/lib/db';
import { healthKeys } from './keys';

const agentSchema = z.object({ id: z.string(), name: z.string() });
const NONE: ReadonlyMap<string, string> = new Map();

/**
 * Spec §7: with Tab By agent_id the tabs are named after the agents, looked up by id. Without read
 * access to agents (or while loading) the tabs show the ids; the local agent is 'local'.
 */
export function useAgentNames(ids: readonly string[], enabled: boolean): ReadonlyMap<string, string> {
  const { can } = useAccess();
  const sorted = [...new Set(ids)].sort();
  const query = useQuery({
    queryKey: healthKeys.agents(sorted),
    enabled: enabled && sorted.length > 0 && can('agents', 'read'),
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('agents').select('id,name').in('id', sorted).abortSignal(signal);
      if (error) throw new Error(error.message, { cause: error });
      return new Map(z.array(agentSchema).parse(data ?? []).map((agent) => [agent.id, agent.name]));
    },
  });
  return query.data ?? NONE;
}
