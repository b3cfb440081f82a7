import { api } from '@web/lib/api';
import type { ResourceApi } from '@web/features/settings/resources/types';

/** The answer is not used (the list is refetched); any JSON is accepted. */
const ignore = (): undefined => undefined;

/**
 * Canaries are written only through /api/canary/canaries (docs/HEALTH.md): it checks the whole spec,
 * answers every problem with its path, and keeps the checks in step. /api/db serves them read-only.
 */
export const canaryApi: ResourceApi = {
  async save(write, id) {
    if (id === null) await api.post('/api/canary/canaries', write, ignore);
    else await api.put(`/api/canary/canaries/${encodeURIComponent(id)}`, write, ignore);
  },
  async remove(id) {
    await api.delete(`/api/canary/canaries/${encodeURIComponent(id)}`, ignore);
  },
};
