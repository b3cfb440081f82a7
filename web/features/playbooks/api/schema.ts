import { z } from 'zod';

const record = z.record(z.string(), z.unknown());
const person = z.object({ id: z.string(), name: z.string().nullish(), email: z.string().nullish(), avatar: z.string().nullish() }).nullish();

/** One parameter of a playbook (spec.parameters, or GET /api/playbook/{id}/params with defaults rendered). */
export const paramSchema = z.object({
  name: z.string(),
  label: z.string().nullish(),
  type: z.string().nullish(),
  default: z.union([z.string(), z.number(), z.boolean()]).nullish().transform((value) => (value === null || value === undefined ? undefined : String(value))),
  required: z.boolean().nullish(),
  description: z.string().nullish(),
  properties: record.nullish(),
  dependsOn: z.array(z.string()).nullish(),
});
export type PlaybookParam = z.infer<typeof paramSchema>;

export const PLAYBOOK_COLUMNS = 'id,name,namespace,title,description,icon,category,labels,spec,source,error,created_by,created_at,updated_at';

export const playbookSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  title: z.string().nullish(),
  description: z.string().nullish(),
  icon: z.string().nullish(),
  category: z.string().nullish(),
  labels: record.nullish(),
  spec: record.nullish(),
  source: z.string().nullish(),
  error: z.string().nullish(),
  created_by: z.string().nullish(),
  created_at: z.string(),
  updated_at: z.string().nullish(),
  creator: person,
});
export type Playbook = z.infer<typeof playbookSchema>;

/** A playbook runnable on a resource (GET /api/playbook/list). */
export const runnableSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string().nullish(),
  title: z.string().nullish(),
  icon: z.string().nullish(),
  category: z.string().nullish(),
  description: z.string().nullish(),
  parameters: z.array(paramSchema).nullish(),
});
export type RunnablePlaybook = z.infer<typeof runnableSchema>;

export const paramsAnswerSchema = z.object({ params: z.array(paramSchema).nullish().transform((value) => value ?? []) });

const named = z.object({ id: z.string(), name: z.string().nullish(), type: z.string().nullish() }).nullish();

export const RUN_COLUMNS =
  'id,playbook_id,status,parameters,config_id,component_id,check_id,parent_id,created_by,request,error,timeout_millis,scheduled_time,start_time,end_time,created_at,updated_at';
/** The run's playbook, who ran it and what it ran on (the embeds of /api/db/playbook_runs). */
export const RUN_EMBEDS =
  'playbook:playbooks(id,name,namespace,title,icon,category),person:people(id,name,email,avatar),config:config_items(id,name,type),component:components(id,name,type),check:checks(id,name,type)';

export const runSchema = z.object({
  id: z.string(),
  playbook_id: z.string(),
  status: z.string(),
  parameters: record.nullish(),
  config_id: z.string().nullish(),
  component_id: z.string().nullish(),
  check_id: z.string().nullish(),
  parent_id: z.string().nullish(),
  created_by: z.string().nullish(),
  request: record.nullish(),
  error: z.string().nullish(),
  timeout_millis: z.coerce.number().nullish(),
  scheduled_time: z.string().nullish(),
  start_time: z.string().nullish(),
  end_time: z.string().nullish(),
  created_at: z.string(),
  updated_at: z.string().nullish(),
  playbook: z.object({ id: z.string(), name: z.string(), namespace: z.string().nullish(), title: z.string().nullish(), icon: z.string().nullish(), category: z.string().nullish() }).nullish(),
  person: person,
  config: named,
  component: named,
  check: named,
});
export type PlaybookRun = z.infer<typeof runSchema>;

export const artifactSchema = z.object({
  id: z.string(),
  path: z.string().nullish(),
  filename: z.string().nullish(),
  size: z.coerce.number().nullish(),
  content_type: z.string().nullish(),
  created_at: z.string().nullish(),
});
export type RunArtifact = z.infer<typeof artifactSchema>;

export const runActionSchema = z.object({
  id: z.string(),
  playbook_run_id: z.string().nullish(),
  name: z.string(),
  action_index: z.coerce.number().nullish(),
  type: z.string().nullish(),
  status: z.string(),
  retry_count: z.coerce.number().nullish(),
  scheduled_time: z.string().nullish(),
  start_time: z.string().nullish(),
  end_time: z.string().nullish(),
  result: record.nullish(),
  error: z.string().nullish(),
  artifacts: z.array(artifactSchema).nullish(),
});
export type RunAction = z.infer<typeof runActionSchema>;

export const approvalSchema = z.object({ id: z.string(), run_id: z.string(), person_id: z.string().nullish(), team_id: z.string().nullish(), created_at: z.string(), person });
export type Approval = z.infer<typeof approvalSchema>;

export const runAnswerSchema = z.object({ run_id: z.string() });
export const statusAnswerSchema = z.object({ status: z.string().optional() }).passthrough();
export const saveAnswerSchema = z.object({ id: z.string().optional(), action: z.string().optional(), warnings: z.array(z.string()).optional() }).passthrough();
export type PlaybookParamInput = z.input<typeof paramSchema>;
