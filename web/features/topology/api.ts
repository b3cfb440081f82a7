import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TopologyResponse, TopologyRunResult } from '@common/topology';
import { api } from '@web/lib/api';

export const topologyKeys = {
  all: ['topology'] as const,
  tree: (id: string | undefined, hidden: boolean) => ['topology', 'tree', id ?? 'roots', hidden] as const,
};

/** The answer as the server sends it (common/topology.ts); the shape is the server's own type. */
const asResponse = (data: unknown) => data as TopologyResponse;

/**
 * GET /api/canary/api/topology: the roots (or one component with its parents) with their children, the
 * health rolled up live. Filters run in the page on this one answer, so changing one is instant.
 */
export function useTopology(id: string | undefined, options: { hidden: boolean; depth?: number }) {
  return useQuery({
    queryKey: [...topologyKeys.tree(id, options.hidden), options.depth ?? null],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams();
      if (id) params.set('id', id);
      if (options.hidden) params.set('hidden', 'true');
      if (options.depth !== undefined) params.set('depth', String(options.depth));
      return api.get(`/api/canary/api/topology?${params.toString()}`, asResponse, { signal });
    },
    // Health follows the checks: the dashboard refreshes itself every 30 s.
    refetchInterval: 30_000,
  });
}

/** POST /api/canary/run/topology/{id}: runs the topology now; the tree reloads afterwards. */
export function useRunTopology() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (topologyId: string) => api.post(`/api/canary/run/topology/${topologyId}`, undefined, (data) => data as TopologyRunResult),
    onSettled: () => client.invalidateQueries({ queryKey: topologyKeys.all }),
  });
}
