import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';
import { activityKeys } from '../queries';
import { buildChangesRequest, type ChangesQueryFilters, type ChangesScope } from './request';
import { CHANGE_DETAIL_COLUMNS, changeDetailSchema, changesAnswerSchema } from './schema';

/** One page of the feed (POST /api/catalog/changes); the previous page stays shown while the next loads. */
export function useCatalogChanges(filters: ChangesQueryFilters, scope: ChangesScope, enabled = true) {
  return useQuery({
    queryKey: activityKeys.changes(filters, scope),
    enabled,
    placeholderData: keepPreviousData,
    // Relative ranges resolve at fetch time, so a refresh moves the window forward.
    queryFn: ({ signal }) => api.post('/api/catalog/changes', buildChangesRequest(filters, scope), (data) => changesAnswerSchema.parse(data), { signal }),
  });
}

/** A change's diff, patches and details, read when its row opens (the feed leaves them out). */
export function useChangeDetail(id: string) {
  return useQuery({
    queryKey: activityKeys.change(id),
    staleTime: Infinity,
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('config_changes').select(CHANGE_DETAIL_COLUMNS).eq('id', id).abortSignal(signal).maybeSingle();
      if (error) throw new Error(error.message, { cause: error });
      return data === null ? null : changeDetailSchema.parse(data);
    },
  });
}
