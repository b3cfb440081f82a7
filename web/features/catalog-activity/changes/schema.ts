import { z } from 'zod';
import { CONFIG_HEALTHS, type ConfigHealth } from '@web/features/catalog/api/schema';

const nullableText = z.string().nullish().transform((value) => value ?? null);
const health = z
  .string()
  .nullish()
  .transform((value): ConfigHealth | null => CONFIG_HEALTHS.find((option) => option === value) ?? null);
/** created_by: a person's id, or the person ({id, name}) when the answer embeds it. */
const person = z
  .union([z.string(), z.object({ id: z.string().optional(), name: z.string().nullish(), email: z.string().nullish() }).loose()])
  .nullish()
  .transform((value) => (typeof value === 'string' ? value : (value?.name ?? value?.email ?? value?.id ?? null)));

/**
 * One change of POST /api/catalog/changes, without its diff. The config is named either by flat columns
 * (config_name, config_type, config_health, …) or by a nested `config`; both read the same.
 */
const rawChangeSchema = z
  .object({
    id: z.string(),
    config_id: z.string(),
    config_name: nullableText.optional(),
    config_type: nullableText.optional(),
    config_health: health.optional(),
    config_deleted_at: nullableText.optional(),
    name: nullableText.optional(),
    type: nullableText.optional(),
    health: health.optional(),
    deleted_at: nullableText.optional(),
    config: z.object({ name: nullableText.optional(), type: nullableText.optional(), health: health.optional(), deleted_at: nullableText.optional() }).loose().nullish(),
    change_type: z.string(),
    severity: nullableText,
    source: nullableText,
    summary: nullableText,
    count: z.coerce.number().nullish().transform((value) => value ?? 1),
    first_observed: nullableText,
    created_at: z.string(),
    created_by: person,
    external_created_by: nullableText,
  })
  .loose();

export const feedChangeSchema = rawChangeSchema.transform((row) => ({
  id: row.id,
  configId: row.config_id,
  config: {
    id: row.config_id,
    name: row.config_name ?? row.config?.name ?? row.name ?? null,
    type: row.config_type ?? row.config?.type ?? row.type ?? 'Unknown',
    health: row.config_health ?? row.config?.health ?? row.health ?? null,
    deleted_at: row.config_deleted_at ?? row.config?.deleted_at ?? row.deleted_at ?? null,
  },
  changeType: row.change_type,
  severity: row.severity,
  source: row.source,
  summary: row.summary,
  count: row.count,
  firstObserved: row.first_observed,
  createdAt: row.created_at,
  createdBy: row.external_created_by ?? row.created_by,
}));
export type FeedChange = z.infer<typeof feedChangeSchema>;

/** The answer of POST /api/catalog/changes: counts by change type over every page, the total, one page. */
export const changesAnswerSchema = z.object({
  summary: z
    .record(z.string(), z.coerce.number())
    .nullish()
    .transform((value) => value ?? {}),
  total: z.coerce.number(),
  changes: z.array(feedChangeSchema),
});
export type ChangesAnswer = z.infer<typeof changesAnswerSchema>;

/** What a row shows when it opens: the change's diff, its merge patch and its details (GET /api/db/config_changes). */
export const changeDetailSchema = z.object({
  id: z.string(),
  diff: z.string().nullable(),
  patches: z.unknown(),
  details: z.unknown(),
});
export type ChangeDetail = z.infer<typeof changeDetailSchema>;
export const CHANGE_DETAIL_COLUMNS = 'id,diff,patches,details';
