import type { ResourceApi } from '@web/features/settings/resources/registry';
import { api } from '@web/lib/api';

const ignore = (): undefined => undefined;

/**
 * Topologies are written only through /api/canary/topologies (docs/TOPOLOGY.md): the whole spec is
 * checked and every problem answered with its path; /api/db serves them read-only.
 */
export const topologyApi: ResourceApi = {
  async save(write, id) {
    if (id === null) await api.post('/api/canary/topologies', write, ignore);
    else await api.put(`/api/canary/topologies/${encodeURIComponent(id)}`, write, ignore);
  },
  async remove(id) {
    await api.delete(`/api/canary/topologies/${encodeURIComponent(id)}`, ignore);
  },
};
