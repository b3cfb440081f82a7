import { z } from 'zod';
import { LOCAL_AGENT_ID } from '@common/constants';

/** Answers of the health API (docs/HEALTH.md), checked at the boundary. */

const nullableNumber = z.number().nullable();

export const checkSummarySchema = z.object({
  id: z.string(),
  canary_id: z.string(),
  canary_name: z.string(),
  canary_namespace: z.string(),
  agent_id: z.string(),
  name: z.string(),
  namespace: z.string(),
  type: z.string(),
  icon: z.string().nullable(),
  description: z.string().nullable(),
  endpoint: z.string().nullable(),
  labels: z.record(z.string(), z.string()),
  owner: z.string().nullable(),
  severity: z.string(),
  /** '' before the first result (canary-checker's shape), read as null. */
  status: z
    .enum(['healthy', 'unhealthy', ''])
    .nullable()
    .transform((value) => (value === '' ? null : value)),
  transformed_from: z.string().nullable(),
  uptime: z.object({ passed: z.number(), failed: z.number(), last_pass: z.string().nullable(), last_fail: z.string().nullable() }),
  latency: z.object({ p50: nullableNumber, p95: nullableNumber, p97: nullableNumber, p99: nullableNumber, rolling1h: nullableNumber }),
  last_runtime: z.string().nullable(),
  last_transition_time: z.string().nullable(),
  next_runtime: z.string().nullable(),
  created_at: z.string(),
  /** Ours, when asked (`recent`): the check's newest results, newest first: times (epoch ms) and outcomes (the list's strip). */
  recent_statuses: z.object({ time: z.array(z.number()), status: z.array(z.boolean()) }).optional(),
});
export type CheckSummary = z.infer<typeof checkSummarySchema>;

export const summaryAnswerSchema = z.object({
  checks_summary: z.array(checkSummarySchema),
  total: z.number(),
  from: z.string(),
  to: z.string(),
  source: z.enum(['raw', 'hourly', 'daily']),
  estimate: z.boolean(),
});
export type SummaryAnswer = z.infer<typeof summaryAnswerSchema>;

/** GET /api/canary/api/graph: canary-checker's shape (status series, latency, uptime) with ours (check_id, source, step_ms, from, to). */
export const graphAnswerSchema = z.object({
  check_id: z.string(),
  source: z.enum(['raw', 'hourly', 'daily']),
  step_ms: z.number(),
  from: z.string(),
  to: z.string(),
  /**
   * The buckets: `duration` is the bucket's mean latency (ms), `status` true when all its results passed,
   * `count` its results; ours: `max`, its slowest result (raw results only).
   */
  status: z.array(z.object({ time: z.string(), status: z.boolean(), duration: z.number(), count: z.number().optional(), passed: z.number(), failed: z.number(), max: z.number().optional() })),
  /** The range's percentiles (ms); `rolling1h` the last hour's p95. */
  latency: z.object({ p50: z.number().optional(), p95: z.number().optional(), p97: z.number().optional(), p99: z.number().optional(), rolling1h: z.number() }).optional(),
  uptime: z.object({ passed: z.number(), failed: z.number() }),
});
export type GraphAnswer = z.infer<typeof graphAnswerSchema>;
export type GraphPoint = GraphAnswer['status'][number];

export const runResultSchema = z.object({
  check_id: z.string(),
  status: z.enum(['healthy', 'unhealthy']),
  pass: z.boolean(),
  invalid: z.boolean().optional(),
  time: z.string(),
  duration: z.number(),
  message: z.string().nullish(),
  error: z.string().nullish(),
});
export type RunResult = z.infer<typeof runResultSchema>;

/** One raw result (spec §3 check status row). */
export const checkStatusSchema = z.object({
  time: z.string(),
  status: z.boolean(),
  invalid: z.boolean(),
  duration: z.number(),
  message: z.string().nullable(),
  error: z.string().nullable(),
});
export type CheckStatus = z.infer<typeof checkStatusSchema>;
export const CHECK_STATUS_COLUMNS = 'time,status,invalid,duration,message,error';

/** What the Spec tab reads of a check and its canary. */
export const checkSpecSchema = z.object({
  id: z.string(),
  canary_id: z.string(),
  type: z.string(),
  name: z.string(),
  spec: z.record(z.string(), z.unknown()),
  transformed_from: z.string().nullable(),
  /** Not the nil uuid: the check runs on that agent, which pushes its results here. */
  agent_id: z.string().default(LOCAL_AGENT_ID),
  last_runtime: z.string().nullable(),
  deleted_at: z.string().nullable(),
  canaries: z.object({ name: z.string(), namespace: z.string(), schedule: z.string().nullable(), source: z.string() }).nullable(),
});
export type CheckSpec = z.infer<typeof checkSpecSchema>;
export const CHECK_SPEC_COLUMNS = 'id,canary_id,type,name,spec,transformed_from,agent_id,last_runtime,deleted_at,canaries(name,namespace,schedule,source)';

const relatedSchema = z.object({ name: z.string().nullable(), type: z.string().nullable() }).nullable().optional();
export const relationshipSchema = z.object({
  component_id: z.string().optional(),
  config_id: z.string().optional(),
  selector_id: z.string().nullable(),
  /** The related component or config item, embedded (null when it was deleted). */
  components: relatedSchema,
  config_items: relatedSchema,
});
export type Relationship = z.infer<typeof relationshipSchema>;
