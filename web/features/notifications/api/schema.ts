import { waitingReferences } from '@common/waiting';
import { z } from 'zod';

const person = z.object({ id: z.string(), name: z.string().nullish(), email: z.string().nullish() }).nullish();
const team = z.object({ id: z.string(), name: z.string().nullish() }).nullish();
const customService = z
  .object({
    kind: z.string().optional(),
    email: z.string().optional(),
    connection: z.string().optional(),
    connection_type: z.string().optional(),
    url: z.string().optional(),
    webhook: z.object({ url: z.string().optional(), connection: z.string().optional() }).passthrough().optional(),
  })
  .passthrough();

/** The people and teams embedded on a rule (the FKs of server/postgrest/relations/notifications.ts). */
export const SUMMARY_EMBEDS = 'person:people!notifications_summary_person_id_fkey(id,name,email),team:teams!notifications_summary_team_id_fkey(id,name)';

export const RULE_SUMMARY_COLUMNS =
  'id,name,namespace,events,title,filter,person_id,team_id,custom_services,repeat_interval,group_by,wait_for,disabled,error,error_at,source,created_at,updated_at,sent,failed,pending,silenced,suppressed,last_sent,last_failed,status,waiting_for';

export const ruleSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  events: z.array(z.string()).nullish().transform((value) => value ?? []),
  title: z.string().nullish(),
  filter: z.string().nullish(),
  custom_services: z.array(customService).nullish(),
  repeat_interval: z.string().nullish(),
  disabled: z.boolean(),
  error: z.string().nullish(),
  error_at: z.string().nullish(),
  source: z.string().nullish(),
  created_at: z.string(),
  updated_at: z.string().nullish(),
  sent: z.coerce.number(),
  failed: z.coerce.number(),
  pending: z.coerce.number(),
  silenced: z.coerce.number(),
  suppressed: z.coerce.number(),
  last_sent: z.string().nullish(),
  last_failed: z.string().nullish(),
  status: z.string().nullish(),
  /** What the rule names that does not exist yet (docs/RESOURCES.md). */
  waiting_for: z.unknown().optional().transform(waitingReferences),
  person: person,
  team: team,
});
export type RuleSummary = z.infer<typeof ruleSummarySchema>;

export const ruleSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  labels: z.record(z.string(), z.unknown()).nullish(),
  spec: z.record(z.string(), z.unknown()).nullish(),
  source: z.string().nullish(),
  disabled: z.boolean(),
  error: z.string().nullish(),
});
export type Rule = z.infer<typeof ruleSchema>;

/** POST /api/notification/summary: counts of each rule over a time range. */
export const rangeCountsSchema = z.array(
  z.object({
    notification_id: z.string(),
    sent: z.coerce.number(),
    failed: z.coerce.number(),
    pending: z.coerce.number(),
    silenced: z.coerce.number().optional(),
    suppressed: z.coerce.number().optional(),
    last_sent: z.string().nullish(),
  }),
);
export type RangeCounts = z.infer<typeof rangeCountsSchema>[number];

export const HISTORY_COLUMNS =
  'id,notification_id,notification_name,source_event,resource_id,resource_type,resource,status,reason,recipient,title,body,error,retries,count,created_at,sent_at,duration_millis,not_before,parent_id';

export const historyRowSchema = z.object({
  id: z.string(),
  notification_id: z.string(),
  notification_name: z.string().nullish(),
  source_event: z.string(),
  resource_id: z.string(),
  resource_type: z.string().nullish(),
  resource: z.object({ id: z.string().nullish(), name: z.string().nullish(), type: z.string().nullish(), kind: z.string().nullish() }).nullish(),
  status: z.string(),
  reason: z.string().nullish(),
  recipient: z.string().nullish(),
  title: z.string().nullish(),
  body: z.string().nullish(),
  error: z.string().nullish(),
  retries: z.coerce.number().nullish(),
  count: z.coerce.number().nullish(),
  created_at: z.string(),
  sent_at: z.string().nullish(),
  duration_millis: z.coerce.number().nullish(),
  not_before: z.string().nullish(),
  parent_id: z.string().nullish(),
});
export type HistoryRow = z.infer<typeof historyRowSchema>;

export const SILENCE_COLUMNS =
  'id,name,namespace,description,from,until,recursive,config_id,check_id,canary_id,component_id,filter,selectors,error,source,created_at,created_by_person:people!notification_silences_created_by_fkey(id,name,email)';

export const selectorSchema = z
  .object({
    name: z.string().optional(),
    namespace: z.string().optional(),
    types: z.array(z.string()).optional(),
    labelSelector: z.string().optional(),
    tagSelector: z.string().optional(),
    health: z.string().optional(),
  })
  .passthrough();

export const silenceSchema = z.object({
  id: z.string(),
  name: z.string().nullish(),
  namespace: z.string().nullish(),
  description: z.string().nullish(),
  from: z.string(),
  until: z.string().nullable(),
  recursive: z.boolean(),
  config_id: z.string().nullish(),
  check_id: z.string().nullish(),
  canary_id: z.string().nullish(),
  component_id: z.string().nullish(),
  filter: z.string().nullish(),
  selectors: z.array(selectorSchema).nullish(),
  error: z.string().nullish(),
  source: z.string().nullish(),
  created_at: z.string(),
  created_by_person: person,
});
export type Silence = z.infer<typeof silenceSchema>;

/** POST /api/notifications: the saved rule and what the server read but does not run. */
export const saveAnswerSchema = z.object({ id: z.string().optional(), action: z.string().optional(), warnings: z.array(z.string()).optional() }).passthrough();

export const previewSchema = z.object({ total: z.coerce.number(), rows: z.array(historyRowSchema) });
