import { z } from 'zod';

const record = z.record(z.string(), z.unknown());

/** The columns the list reads from views_summary (spec §3 View: id, name, namespace, title, icon, ordinal, sidebar). */
export const SUMMARY_COLUMNS = 'id,name,namespace,title,icon,ordinal,sidebar,source,created_at,updated_at,last_ran';

export const viewSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  title: z.string().nullish(),
  icon: z.string().nullish(),
  ordinal: z.number().nullish(),
  sidebar: z.boolean().nullish(),
  source: z.string().nullish(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  last_ran: z.string().nullish(),
});
export type ViewSummary = z.infer<typeof viewSummarySchema>;

export const VIEW_COLUMNS = 'id,name,namespace,title,icon,labels,spec,source,error,created_at,updated_at';

/** One views row of /api/db, as the editor reads it. */
export const viewRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  title: z.string().nullish(),
  icon: z.string().nullish(),
  labels: record.nullish(),
  spec: record.nullish(),
  source: z.string().nullish(),
  error: z.string().nullish(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
});
export type ViewRow = z.infer<typeof viewRowSchema>;

/** POST /api/views and PUT /api/views/{id} (specRowRoutes): the id and the fields read but not run. */
export const saveAnswerSchema = z.object({ id: z.string().optional(), action: z.string().optional(), warnings: z.array(z.string()).optional() });

/** POST /api/views/validate. */
export const validationSchema = z.object({ errors: z.array(z.object({ path: z.string(), message: z.string() })), warnings: z.array(z.string()) });

export const viewTitle = (view: { name: string; title?: string | null | undefined }) => view.title?.trim() || view.name;
/** Spec §4: a view from a file or an agent is changed where it is defined. */
export const isUiView = (view: { source?: string | null | undefined }) => (view.source ?? 'UI') === 'UI';
