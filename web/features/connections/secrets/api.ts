import { api } from '@web/lib/api';
import type { ResourceApi } from '@web/features/settings/resources/types';

const ignore = (): undefined => undefined;

/**
 * Secrets and config maps are written through their REST API (POST base, PATCH base/{id}, DELETE
 * base/{id}), which encrypts secret values; /api/db serves them read-only, secrets without values.
 */
export function secretsApi(base: '/api/secrets' | '/api/config_maps'): ResourceApi {
  return {
    async save(write, id) {
      if (id === null) await api.post(base, write, ignore);
      else await api.patch(`${base}/${encodeURIComponent(id)}`, write, ignore);
    },
    async remove(id) {
      await api.delete(`${base}/${encodeURIComponent(id)}`, ignore);
    },
  };
}
