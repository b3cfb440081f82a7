import { LOOKUP_STALE_TIME_MS } from '@common/constants';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { db } from '@web/lib/db';

/** The people commanding an incident, for the Owner filter. */
export function useCommanders() {
  return useQuery({
    queryKey: ['incidents', 'lookup', 'commanders'],
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('incident_summary').select('commander').not('commander_id', 'is', null).limit(1000).abortSignal(signal);
      if (error) throw new Error(error.message, { cause: error });
      const rows = z.array(z.object({ commander: z.object({ id: z.string(), name: z.string().nullable(), email: z.string().nullable() }).nullable() })).parse(data ?? []);
      const people = new Map<string, string>();
      for (const { commander } of rows) if (commander) people.set(commander.id, commander.name || commander.email || commander.id);
      return [...people.entries()].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
    },
  });
}

/** The components named in incidents' evidence, for the Component filter. */
export function useIncidentComponents() {
  return useQuery({
    queryKey: ['incidents', 'lookup', 'components'],
    staleTime: LOOKUP_STALE_TIME_MS,
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('incidents_by_component').select('component_id,component_name').limit(1000).abortSignal(signal);
      if (error) throw new Error(error.message, { cause: error });
      const rows = z.array(z.object({ component_id: z.string(), component_name: z.string() })).parse(data ?? []);
      const components = new Map(rows.map((row) => [row.component_id, row.component_name]));
      return [...components.entries()].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
    },
  });
}
