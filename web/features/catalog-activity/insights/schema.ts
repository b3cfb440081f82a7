import { z } from 'zod';
import { CONFIG_HEALTHS, type ConfigHealth } from '@web/features/catalog/components';

const health = z
  .string()
  .nullable()
  .transform((value): ConfigHealth | null => CONFIG_HEALTHS.find((option) => option === value) ?? null);

/** A row of config_analysis_items (an insight with the config it is about), checked at the boundary. */
export const insightRowSchema = z.object({
  id: z.string(),
  config_id: z.string(),
  analyzer: z.string(),
  analysis_type: z.string(),
  severity: z.string(),
  status: z.string(),
  message: z.string().nullable(),
  summary: z.string().nullable(),
  source: z.string().nullable(),
  first_observed: z.string(),
  last_observed: z.string(),
  config_name: z.string().nullable(),
  config_type: z.string(),
  config_health: health,
  config_deleted_at: z.string().nullable(),
});
export type InsightRow = z.infer<typeof insightRowSchema>;
export const INSIGHT_COLUMNS =
  'id,config_id,analyzer,analysis_type,severity,status,message,summary,source,first_observed,last_observed,config_name,config_type,config_health,config_deleted_at';

/** What the details dialog adds: the analysis as the analyzer wrote it. */
export const insightDetailSchema = insightRowSchema.extend({ analysis: z.unknown() });
export type InsightDetail = z.infer<typeof insightDetailSchema>;
export const INSIGHT_DETAIL_COLUMNS = `${INSIGHT_COLUMNS},analysis`;
