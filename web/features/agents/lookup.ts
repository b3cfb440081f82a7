import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { LOOKUP_STALE_TIME_MS } from '@common/constants';
import { useAccess } from '@web/app/session';
import { db } from '@web/lib/db';
import { LOCAL_AGENT_ID } from './schema';

export interface AgentOption {
  id: string;
  name: string;
}

const optionSchema = z.object({ id: z.string(), name: z.string() });
const NONE: readonly AgentOption[] = [];

/**
 * The agents a list can be filtered by (catalog, topology): 'local' (the nil uuid, spec §3) first, then
 * the registered agents by name. Empty without read access on agents.
 */
export function useAgentOptions(): readonly AgentOption[] {
  const { can } = useAccess();
  const query = useQuery({
    queryKey: ['agents', 'options'] as const,
    enabled: can('agents', 'read'),
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('agents').select('id,name').order('name').limit(1000).abortSignal(signal);
      if (error) throw new Error(error.message, { cause: error });
      const rows = z.array(optionSchema).parse(data ?? []);
      const others = rows.filter((row) => row.id !== LOCAL_AGENT_ID);
      return [{ id: LOCAL_AGENT_ID, name: 'local' }, ...others];
    },
  });
  return query.data ?? NONE;
}

/** id → name of the known agents, for cells that show a resource's agent. */
export function useAgentNameMap(): ReadonlyMap<string, string> {
  const options = useAgentOptions();
  return new Map(options.map((option) => [option.id, option.name]));
}
