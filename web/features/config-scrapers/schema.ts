import { z } from 'zod';
import { CONFIG_HEALTHS, type ConfigHealth } from '@web/features/catalog/components';

const labelsSchema = z
  .record(z.string(), z.unknown())
  .nullable()
  .transform((labels) => Object.fromEntries(Object.entries(labels ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string')));

/** A config_scrapers row of /api/db (migration 0007), checked at the boundary. */
export const scraperRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  description: z.string().nullable(),
  labels: labelsSchema,
  spec: z
    .record(z.string(), z.unknown())
    .nullable()
    .transform((spec) => spec ?? {}),
  /** The effective schedule; null runs only when asked (@never). */
  schedule: z.string().nullable(),
  source: z.string(),
  last_run_at: z.string().nullable(),
  next_run_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
});
export type ScraperRow = z.infer<typeof scraperRowSchema>;

export const SCRAPER_COLUMNS = 'id,name,namespace,description,labels,spec,schedule,source,last_run_at,next_run_at,created_at,updated_at';

/** A config_scrapers_summary row (migration 0011): the scraper with its latest run and its live items. */
export const scraperSummarySchema = scraperRowSchema.extend({
  /** Of the latest run in job history; null when it never ran. */
  last_job_status: z.string().nullable(),
  last_job_time: z.string().nullable(),
  last_job_error_count: z.number().nullable(),
  item_count: z.number(),
});
export type ScraperSummary = z.infer<typeof scraperSummarySchema>;
export const SCRAPER_SUMMARY_COLUMNS = `${SCRAPER_COLUMNS},last_job_status,last_job_time,last_job_error_count,item_count`;

/** An item of a scraper (the `configs` list view). */
export const scraperItemSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  type: z.string(),
  health: z
    .string()
    .nullable()
    .transform((value): ConfigHealth | null => CONFIG_HEALTHS.find((option) => option === value) ?? null),
  status: z.string().nullable(),
  changes: z.coerce.number().nullable(),
  analysis: z.record(z.string(), z.coerce.number()).nullable(),
  updated_at: z.string().nullable(),
  last_scraped_time: z.string().nullable(),
});
export type ScraperItem = z.infer<typeof scraperItemSchema>;
export const SCRAPER_ITEM_COLUMNS = 'id,name,type,health,status,changes,analysis,updated_at,last_scraped_time';

/** POST /api/config/run/{id}: what the run did. */
export const runResultSchema = z.object({
  created: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  deleted: z.number(),
  changes: z.number(),
  analysis: z.number(),
  errors: z.array(z.string()),
  status: z.string().optional(),
});
export type RunResult = z.infer<typeof runResultSchema>;

/** POST /api/catalog/scrapers/validate. */
export const validationSchema = z.object({
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
  warnings: z.array(z.string()),
  schedule: z.string().nullable(),
  entries: z.array(z.object({ type: z.string(), where: z.string() })),
});
export type ScraperValidation = z.infer<typeof validationSchema>;

/** POST and PUT /api/catalog/scrapers. */
export const savedSchema = z.object({ id: z.string(), action: z.string(), warnings: z.array(z.string()).default([]) });
export type SavedScraper = z.infer<typeof savedSchema>;
