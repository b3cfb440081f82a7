import { z } from 'zod';

/** A `job_histories` row (spec §3 Job history row), checked at the /api/db boundary. */
export const jobHistorySchema = z.object({
  id: z.string(),
  name: z.string(),
  agent_id: z.string().nullable(),
  agent: z.object({ id: z.string().nullable(), name: z.string().nullable() }).nullable(),
  resource_type: z.string().nullable(),
  resource_id: z.string().nullable(),
  resource_name: z.string().nullable(),
  status: z.string(),
  success_count: z.coerce.number(),
  error_count: z.coerce.number(),
  details: z.record(z.string(), z.unknown()).nullable(),
  hostname: z.string().nullable(),
  duration_millis: z.coerce.number().nullable(),
  time_start: z.string().nullable(),
  time_end: z.string().nullable(),
  created_at: z.string().nullable(),
});
export type JobHistory = z.infer<typeof jobHistorySchema>;

export const JOB_HISTORY_COLUMNS =
  'id,name,agent_id,agent,resource_type,resource_id,resource_name,status,success_count,error_count,details,hostname,duration_millis,time_start,time_end,created_at';
