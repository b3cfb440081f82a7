import { z } from 'zod';

/**
 * The answer of POST /api/view/{id} (the views-engine contract of issue 22). Options a column or panel
 * carries from the spec are kept as they are (`passthrough`), so a field added upstream reaches the
 * renderer without a schema change; only the fields the page reads are typed.
 */
const record = z.record(z.string(), z.unknown());
const text = z.string().nullish();

const threshold = z.object({ percent: z.number().nullish(), value: z.number().nullish(), color: z.string() }).passthrough();
/** min/max are strings in Mission Control files ("0", "100"), numbers in ours. */
const bound = z.union([z.number(), z.string()]).nullish();
export const gaugeSchema = z.object({ min: bound, max: bound, precision: z.number().nullish(), unit: text, thresholds: z.array(threshold).nullish() }).passthrough();
export type GaugeOptions = z.infer<typeof gaugeSchema>;

export const columnSchema = z
  .object({
    name: z.string(),
    type: z.string().default('string'),
    label: text,
    description: text,
    hidden: z.boolean().nullish(),
    primaryKey: z.boolean().nullish(),
    unit: text,
    filter: z.object({ type: z.string().nullish() }).passthrough().nullish(),
    url: record.nullish(),
    for: text,
    icon: text,
    gauge: gaugeSchema.nullish(),
    configItem: z.object({ idField: text }).passthrough().nullish(),
    badge: record.nullish(),
  })
  .passthrough();
export type ViewColumn = z.infer<typeof columnSchema>;

export const panelSchema = z
  .object({
    name: z.string(),
    description: text,
    type: z.string(),
    rows: z.array(record).default([]),
    error: text,
  })
  .passthrough();
export type ViewPanel = z.infer<typeof panelSchema>;

export const variableSchema = z.object({
  key: z.string(),
  label: text,
  values: z.array(z.union([z.string(), z.number(), z.boolean()]).transform(String)).default([]),
  default: z.union([z.string(), z.number(), z.boolean()]).nullish().transform((value) => (value === null || value === undefined ? undefined : String(value))),
  dependsOn: z.array(z.string()).nullish(),
  /** Label and value of each option (they differ when valueFrom names a label). */
  options: z.array(z.object({ label: z.string(), value: z.string() })).nullish(),
  /** The value the rows were made with. */
  selected: z.string().nullish(),
});
export type ViewVariable = z.infer<typeof variableSchema>;

/** An embedded view; `id` is null when the section names a view that does not exist. */
export const sectionSchema = z.object({ title: text, icon: text, id: z.string().nullable(), namespace: text, name: text });
export type ViewSection = z.infer<typeof sectionSchema>;

export const viewAnswerSchema = z.object({
  id: z.string(),
  namespace: z.string(),
  name: z.string(),
  title: text,
  icon: text,
  table: text,
  requestFingerprint: text,
  columns: z.array(columnSchema).default([]),
  rows: z.array(record).default([]),
  totalRows: z.number().nullish(),
  /** The table's default order (display.table.sort), in which `rows` come. */
  sort: z.object({ column: z.string(), desc: z.boolean() }).nullish(),
  panels: z.array(panelSchema).default([]),
  variables: z.array(variableSchema).default([]),
  sections: z.array(sectionSchema).default([]),
  refreshedAt: text,
  ageSeconds: z.number().nullish(),
  refreshing: z.boolean().default(false),
  stale: z.boolean().nullish(),
  error: text,
});
export type ViewAnswer = z.infer<typeof viewAnswerSchema>;

export type ViewRow = Record<string, unknown>;

/** GET /api/view/by-name/{namespace}/{name}. */
export const viewRefSchema = z.object({ id: z.string() });

/** GET /api/view/list?config_id: the views shown as tabs of a catalog item. */
export const viewTabSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string().nullish(),
  title: text,
  icon: text,
  /** The variables the tab sets from the item (display.plugins[].variables rendered over it). */
  variables: z.record(z.string(), z.string()).optional(),
});
export type ViewTab = z.infer<typeof viewTabSchema>;
