import { RELATED_CONFIGS_MAX_DEPTH } from '@common/constants';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { db } from '@web/lib/db';
import { dbError } from './db-error';
import { catalogKeys } from './keys';
import {
  CONFIG_CHECK_COLUMNS,
  INSIGHT_COLUMNS,
  changeDiffSchema,
  changeOptionSchema,
  configCheckSchema,
  insightSchema,
  relatedConfigSchema,
} from './schema';

/** Earlier changes offered by 'Compare with' (newest first): this many, the retention keeps 60 days of them. */
export const COMPARE_CHANGES_LIMIT = 100;

/** The item's changes for the 'Compare with' picker, newest first, without their diffs. */
export function useChangeOptions(configId: string) {
  return useQuery({
    queryKey: catalogKeys.changeOptions(configId),
    queryFn: async ({ signal }) => {
      const { data, error } = await db
        .from('config_changes')
        .select('id,change_type,created_at,summary')
        .eq('config_id', configId)
        .order('created_at', { ascending: false })
        .limit(COMPARE_CHANGES_LIMIT)
        .abortSignal(signal);
      if (error) throw dbError(error);
      return z.array(changeOptionSchema).parse(data ?? []);
    },
  });
}

/** One change with its unified diff; null when it is gone (retention). */
export function useChangeDiff(changeId: string | undefined) {
  return useQuery({
    queryKey: catalogKeys.change(changeId ?? ''),
    enabled: Boolean(changeId),
    queryFn: async ({ signal }) => {
      const { data, error } = await db
        .from('config_changes')
        .select('id,change_type,created_at,summary,diff')
        .eq('id', changeId ?? '')
        .abortSignal(signal)
        .maybeSingle();
      if (error) throw dbError(error);
      return data === null ? null : changeDiffSchema.parse(data);
    },
  });
}

/** The item's insights (config_analysis), the most recently seen first. */
export function useConfigInsights(configId: string) {
  return useQuery({
    queryKey: catalogKeys.insights(configId),
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('config_analysis').select(INSIGHT_COLUMNS).eq('config_id', configId).order('last_observed', { ascending: false }).abortSignal(signal);
      if (error) throw dbError(error);
      return z.array(insightSchema).parse(data ?? []);
    },
  });
}

export const DIRECTIONS = ['all', 'incoming', 'outgoing'] as const;
export type Direction = (typeof DIRECTIONS)[number];

export interface RelatedParams {
  direction: Direction;
  /** 1 to spec §9's 10. */
  depth: number;
  includeDeleted: boolean;
}

/** rpc related_configs_recursive: the items up to `depth` steps away in the direction, nearest first. */
export function useRelatedConfigs(configId: string, params: RelatedParams) {
  return useQuery({
    queryKey: catalogKeys.related(configId, params),
    queryFn: async ({ signal }) => {
      const { data, error } = await db
        .rpc('related_configs_recursive', {
          config_id: configId,
          type_filter: params.direction,
          include_deleted_configs: params.includeDeleted,
          max_depth: Math.min(Math.max(1, params.depth), RELATED_CONFIGS_MAX_DEPTH),
        })
        .select('id,name,type,related_ids,health,status,depth,direction,deleted_at')
        .abortSignal(signal);
      if (error) throw dbError(error);
      return z.array(relatedConfigSchema).parse(data ?? []);
    },
  });
}

/** The checks linked to the item (check_summary_for_config), by name. */
export function useConfigChecks(configId: string) {
  return useQuery({
    queryKey: catalogKeys.checks(configId),
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('check_summary_for_config').select(CONFIG_CHECK_COLUMNS).eq('config_id', configId).order('name').abortSignal(signal);
      if (error) throw dbError(error);
      return z.array(configCheckSchema).parse(data ?? []);
    },
  });
}
