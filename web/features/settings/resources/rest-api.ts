import { api } from '@web/lib/api';
import type { ResourceApi } from './types';

const ignore = (): undefined => undefined;

/**
 * The writes of a resource that has a REST API of its own (`POST base`, `PUT base/{id}`, `DELETE base/{id}`),
 * which checks the whole spec and answers every problem with its path; /api/db serves it read-only.
 */
export function restResourceApi(base: string): ResourceApi {
  return {
    async save(write, id) {
      if (id === null) await api.post(base, write, ignore);
      else await api.put(`${base}/${encodeURIComponent(id)}`, write, ignore);
    },
    async remove(id) {
      await api.delete(`${base}/${encodeURIComponent(id)}`, ignore);
    },
  };
}
