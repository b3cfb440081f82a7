import { z } from 'zod';

/** Rows of the catalog's /api/db relations (migration 0007) and of POST /api/catalog/summary, checked at the boundary. */

export const CONFIG_HEALTHS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;
export type ConfigHealth = (typeof CONFIG_HEALTHS)[number];

const textMap = z.record(z.string(), z.coerce.string()).nullable().transform((value) => value ?? {});
const countMap = z.record(z.string(), z.coerce.number()).nullable().transform((value) => value ?? {});
const health = z.enum(CONFIG_HEALTHS).nullable();

/** A row of `configs` (the list: no config body; changes in the last 7 days, open insights by type). */
export const configListItemSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  type: z.string(),
  status: z.string().nullable(),
  health,
  tags: textMap,
  labels: textMap,
  changes: z.coerce.number().nullable(),
  analysis: countMap,
  /** The agent that pushed it (the nil uuid: this instance). */
  agent_id: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
});
export type ConfigListItem = z.infer<typeof configListItemSchema>;
export const CONFIG_LIST_COLUMNS = 'id,name,type,status,health,tags,labels,changes,analysis,agent_id,created_at,updated_at,deleted_at';

/** A row of `config_detail`: the item, its config as last scraped, its scraper and its tab counts. */
export const configDetailSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  type: z.string(),
  config_class: z.string().nullable(),
  namespace: z.string().nullable(),
  description: z.string().nullable(),
  status: z.string().nullable(),
  health,
  ready: z.boolean().nullable(),
  source: z.string().nullable(),
  labels: textMap,
  tags: textMap,
  external_id: z.array(z.string()).nullable(),
  config: z.unknown(),
  parent_id: z.string().nullable(),
  scraper: z.object({ id: z.string(), name: z.string(), namespace: z.string() }).nullable(),
  summary: z
    .object({ relationships: z.coerce.number(), analysis: z.coerce.number(), changes: z.coerce.number(), checks: z.coerce.number() })
    .nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  last_scraped_time: z.string().nullable(),
  deleted_at: z.string().nullable(),
  delete_reason: z.string().nullable(),
});
export type ConfigDetail = z.infer<typeof configDetailSchema>;
export const CONFIG_DETAIL_COLUMNS =
  'id,name,type,config_class,namespace,description,status,health,ready,source,labels,tags,external_id,config,parent_id,scraper,summary,created_at,updated_at,last_scraped_time,deleted_at,delete_reason';

/** An ancestor from rpc get_parents_by_location, root first. */
export const parentSchema = z.object({ id: z.string(), name: z.string().nullable(), type: z.string() });
export type ConfigParent = z.infer<typeof parentSchema>;

/** A change as the 'Compare with' picker lists it (newest first); the diff is read when one is chosen. */
export const changeOptionSchema = z.object({
  id: z.string(),
  change_type: z.string(),
  summary: z.string().nullable(),
  created_at: z.string(),
});
export type ChangeOption = z.infer<typeof changeOptionSchema>;

export const changeDiffSchema = changeOptionSchema.extend({ diff: z.string().nullable() });
export type ChangeDiff = z.infer<typeof changeDiffSchema>;

/** An insight (config_analysis) of one item. */
export const insightSchema = z.object({
  id: z.string(),
  analyzer: z.string(),
  analysis_type: z.string(),
  severity: z.string(),
  status: z.string(),
  message: z.string().nullable(),
  summary: z.string().nullable(),
  first_observed: z.string(),
  last_observed: z.string(),
});
export type Insight = z.infer<typeof insightSchema>;
export const INSIGHT_COLUMNS = 'id,analyzer,analysis_type,severity,status,message,summary,first_observed,last_observed';

/** A row of rpc related_configs_recursive: an item reached from the one shown, the shortest way there. */
export const relatedConfigSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  type: z.string(),
  related_ids: z.array(z.string()).nullable().transform((value) => value ?? []),
  health,
  status: z.string().nullable(),
  depth: z.coerce.number(),
  direction: z.enum(['incoming', 'outgoing']),
  deleted_at: z.string().nullable(),
});
export type RelatedConfig = z.infer<typeof relatedConfigSchema>;

/** A check linked to the item (check_summary_for_config), for the Checks tab. */
export const configCheckSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  icon: z.string().nullable(),
  status: z.enum(['healthy', 'unhealthy']).nullable(),
  canary_name: z.string(),
  description: z.string().nullable(),
  last_runtime: z.string().nullable(),
  uptime: z.object({ passed: z.coerce.number(), failed: z.coerce.number() }),
});
export type ConfigCheck = z.infer<typeof configCheckSchema>;
export const CONFIG_CHECK_COLUMNS = 'id,name,type,icon,status,canary_name,description,last_runtime,uptime';

/** One group of POST /api/catalog/summary: items of a type (or of tag values) and what is going on with them. */
export const summaryGroupSchema = z.object({
  type: z.string().nullable().optional(),
  keys: z.record(z.string(), z.coerce.string().nullable()).nullable().optional(),
  count: z.coerce.number(),
  health: countMap.optional(),
  status: countMap.optional(),
  changes: z.coerce.number().nullable().optional(),
  analysis: countMap.optional(),
  insights: z.coerce.number().nullable().optional(),
  created_at: z.string().nullable().optional(),
  updated_at: z.string().nullable().optional(),
});
export type SummaryGroup = z.infer<typeof summaryGroupSchema>;
