import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { db } from '@web/lib/db';
import { ANY_DELETED, dbError, isConfigId } from './db-error';
import { catalogKeys } from './keys';
import { CONFIG_DETAIL_COLUMNS, configDetailSchema, parentSchema } from './schema';

/** One config item with its config and tab counts; null when there is none (deleted ones included, marked). */
export function useConfigDetail(id: string | undefined) {
  return useQuery({
    queryKey: catalogKeys.detail(id ?? ''),
    queryFn: async ({ signal }) => {
      if (!isConfigId(id)) return null;
      const { data, error } = await db.from('config_detail').select(CONFIG_DETAIL_COLUMNS).eq('id', id).or(ANY_DELETED).abortSignal(signal).maybeSingle();
      if (error) throw dbError(error);
      return data === null ? null : configDetailSchema.parse(data);
    },
  });
}

/** The item's ancestors along its parent tree, root first (rpc get_parents_by_location), for the breadcrumb. */
export function useConfigParents(id: string | undefined) {
  return useQuery({
    queryKey: catalogKeys.parents(id ?? ''),
    enabled: isConfigId(id),
    queryFn: async ({ signal }) => {
      const { data, error } = await db.rpc('get_parents_by_location', { config_id: id, include_deleted: true }).abortSignal(signal);
      if (error) throw dbError(error);
      return z.array(parentSchema).parse(data ?? []);
    },
  });
}
